import ArgumentParser
import AppDataFolder
import Foundation
import RSSCore

/// `--database`, shared by every command.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("database"),
            help: ArgumentHelp("The database file; created on first use.",
                               discussion: "Defaults to $XDG_DATA_HOME/rss/rss.sqlite, or ~/.local/share/rss/rss.sqlite.",
                               valueName: "path"))
    var database: String?

    /// The database file this run uses.
    var databaseURL: URL {
        if let database { return URL(fileURLWithPath: (database as NSString).expandingTildeInPath) }
        return Self.defaultDatabaseURL(environment: ProcessInfo.processInfo.environment)
    }

    /// `$XDG_DATA_HOME/rss/rss.sqlite`, else `~/.local/share/rss/rss.sqlite`.
    static func defaultDatabaseURL(environment: [String: String]) -> URL {
        AppDataFolder.url(for: "rss", environment: environment).appendingPathComponent("rss.sqlite")
    }

    /// Opens the database, runs `body`, and closes it again whether or not `body` throws.
    @MainActor
    func withData<Result>(_ body: (RSSDataController) async throws -> Result) async throws -> Result {
        let data = try await RSSDataController.open(at: databaseURL)
        do {
            let result = try await body(data)
            try await data.close()
            return result
        } catch {
            try? await data.close()
            throw error
        }
    }
}

/// `--json`, on the commands that print listings.
struct OutputOptions: ParsableArguments {
    @Flag(name: .customLong("json"), help: "Print JSON instead of text, for scripts.")
    var json = false
}
