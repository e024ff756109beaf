import ArgumentParser
import CommandLineTool
import Foundation
import VesperCore

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "A scripted tour of Vesper and QSData on a fresh database, with SQL statement counts.",
        discussion: "The database is made in a new temporary folder and removed afterwards unless --keep is given.")

    @Flag(name: .long, help: "Keep the demo database and print where it is.")
    var keep = false

    @Option(name: .long, help: "How many notes the bulk delete removes.")
    var bulkCount = 1_000

    func validate() throws {
        if bulkCount < 1 { throw ValidationError("--bulk-count must be at least 1.") }
    }

    func run() async throws {
        let tour = try await runTour()
        Console.current.writeOutput(tour)
    }

    /// Runs the tour on a new database and returns what it says.
    @MainActor private func runTour() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vesper-demo-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        let database = GlobalOptions(database: folder.appendingPathComponent("vesper.sqlite").path)
        var tour = try await database.withData { vesper in
            var tour = VesperTour(vesper: vesper, folder: folder, bulkCount: bulkCount)
            try await tour.run()
            return tour
        }
        if keep { tour.say("\nThe demo database is kept at \(database.databaseURL.path)") }
        return tour.output
    }
}
