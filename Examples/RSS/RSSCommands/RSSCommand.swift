import ArgumentParser
import Foundation

/// `rss`: an RSS reader on the command line, built on QSData.
public struct RSSCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rss",
        abstract: "An RSS reader on the command line, built on QSData.",
        discussion: """
            Import feeds (files, folders, http(s) URLs, OPML lists), then read them:
              rss import ~/feeds subscriptions.opml https://inessential.com/feed.json
              rss refresh
              rss list --unread --limit 20
              rss show <article ID>
              rss mark-read --all
            """,
        subcommands: [
            ImportCommand.self, RefreshCommand.self, FeedsCommand.self, ListCommand.self, SearchCommand.self, ShowCommand.self,
            MarkReadCommand.self, MarkUnreadCommand.self, StarCommand.self, UnstarCommand.self,
            DeleteCommand.self, StatsCommand.self, DemoCommand.self,
        ])

    public init() {}

    /// Parses `arguments` (without the program name), runs the command with `console`, and
    /// returns the exit status. Errors are one line on the console's standard error.
    public static func run(_ arguments: [String], console: Console = .standard) async -> Int32 {
        await Console.$current.withValue(console) {
            do {
                var command = try parseAsRoot(arguments)
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
                return 0
            } catch {
                let status = exitCode(for: error)
                if status == .success {
                    let message = fullMessage(for: error)
                    if !message.isEmpty { console.line(message) }
                    return 0
                }
                let message = Self.message(for: error)
                if !message.isEmpty {
                    let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: "; ")
                    console.errorLine("rss: \(oneLine)")
                }
                return status.rawValue
            }
        }
    }
}

/// A command finished its work but some of it failed; its details are already printed.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}
