import ArgumentParser
import CommandLineTool
import Foundation
import RSSCore

struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune", abstract: "Delete old articles that have left their feeds.",
        discussion: """
            An article leaves its feed when a refresh downloads the feed and its document no longer lists it. \
            This deletes those articles that are read, not starred and published more than --older-than days ago. \
            Starred articles, articles still in their feed and articles without a date are never deleted. \
            `rss refresh` applies the same rule to each feed it downloads (see --keep-days there).
            """)

    @OptionGroup var options: GlobalOptions

    @Option(name: .customLong("older-than"), help: ArgumentHelp("Delete only articles published more than this many days ago.", valueName: "days"))
    var olderThan = ArticleRetention.standard.days

    @Flag(name: .customLong("include-unread"), help: "Delete unread articles that left their feed too.")
    var includeUnread = false

    @Option(help: ArgumentHelp("Prune only this feed (URL, title, or a unique part of its URL).", valueName: "name"))
    var feed: String?

    @Flag(name: .customLong("dry-run"), help: "Say how many articles would be deleted, and delete nothing.")
    var dryRun = false

    func validate() throws {
        guard olderThan >= 0 else { throw ValidationError("--older-than must not be negative") }
    }

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        let message = try await options.withData { data in
            var retention = try ArticleRetention(days: olderThan)
            retention.includesUnread = includeUnread
            let feedID = try feed.map { try data.findFeed($0).uniqueID }
            /// "3 articles that left their feeds, read, unstarred, published more than 30 days ago"
            func described(_ count: Int) -> String {
                "\(Output.plural(count, "article")) that left \(count == 1 ? "its feed" : "their feeds"), "
                    + "\(includeUnread ? "read or unread" : "read"), unstarred, published more than \(Output.plural(olderThan, "day")) ago"
            }
            if dryRun {
                let count = try await data.articlesToPrune(retention, feedID: feedID, now: Date()).count
                return "Would delete \(described(count)) (dry run: nothing deleted)."
            }
            let count = try await data.pruneArticles(retention, feedID: feedID, now: Date())
            let authors = try await data.deleteOrphanedAuthors()
            let credited = authors > 0 ? " (\(Output.plural(authors, "author")) no longer credited were deleted too.)" : ""
            return "Deleted \(described(count)).\(credited)"
        }
        console.line(message)
    }
}
