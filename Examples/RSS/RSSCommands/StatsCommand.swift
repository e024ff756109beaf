import ArgumentParser
import CommandLineTool
import RSSCore

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count feeds, articles, unread and starred articles, authors.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        let stats = try await options.withData { data in try await data.statistics() }
        if output.json {
            console.line(try Output.json(stats))
            return
        }
        console.line("Feeds:     \(Output.count(stats.feeds))")
        console.line("Articles:  \(Output.count(stats.articles)) (\(Output.count(stats.unread)) unread, \(Output.count(stats.starred)) starred)")
        console.line("Authors:   \(Output.count(stats.authors))")
        console.line("Published: \(Output.date(stats.oldestArticle)) to \(Output.date(stats.newestArticle))")
        console.line("Database:  \(Output.count(stats.databaseBytes / 1024)) KB at \(options.databaseURL.path)")
    }
}
