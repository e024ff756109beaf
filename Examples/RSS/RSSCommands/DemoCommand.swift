import ArgumentParser
import CommandLineTool
import Foundation
import RSSCore

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Import a large synthetic subscription, then mark 10,000 articles read and delete 10,000, with SQL statement counts and times.",
        discussion: "Runs on a fresh temporary database, deleted afterwards, unless --database is given.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "How many articles to generate.") var articles = 100_000
    @Option(help: "How many articles to mark read and to delete.") var bulk = 10_000

    func validate() throws {
        if articles < 1 { throw ValidationError("--articles must be at least 1") }
        if bulk < 0 { throw ValidationError("--bulk must not be negative") }
    }

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rss-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var databaseOptions = options
        if databaseOptions.database == nil {
            databaseOptions.database = scratch.appendingPathComponent("demo.sqlite").path
        }
        let json = output.json
        let runner = DemoRunner(articleCount: articles, bulkCount: bulk) { line in
            if !json { console.line(line) }
        }
        if !json { console.line("Database: \(databaseOptions.databaseURL.path)") }
        let report = try await databaseOptions.withData { data in try await runner.run(data: data, scratchFolder: scratch) }
        if json { console.line(try Output.json(report)) }
    }
}
