import ArgumentParser
import CommandLineTool
import Foundation
import RSSCore

/// Which articles `mark-read` and `mark-unread` change: IDs, or a feed, a date, or all.
struct ArticleSelection: ParsableArguments {
    @Argument(help: ArgumentHelp("Article IDs, as `rss list` prints them.", valueName: "id")) var ids: [String] = []
    @Option(help: ArgumentHelp("Every article of this feed (URL, title, or part of the URL).", valueName: "feed")) var feed: String?
    @Flag(help: "Every article.") var all = false
    @Option(help: ArgumentHelp("Articles published before this date (2024-05-01 or ISO 8601).", valueName: "date")) var before: DateArgument?

    func validate() throws {
        let hasCondition = feed != nil || all || before != nil
        if ids.isEmpty, !hasCondition { throw ValidationError("name article IDs, or use --feed, --before or --all") }
        if !ids.isEmpty, hasCondition { throw ValidationError("give either article IDs or --feed/--before/--all, not both") }
    }

    /// Sets the read state of the selected articles and says how many changed.
    @MainActor
    func setRead(_ read: Bool, options: GlobalOptions) async throws {
        let console = Console.current
        let changed = try await options.withData { data in
            if !ids.isEmpty { return try await data.markRead(ids: ids, read: read) }
            let feedID = try feed.map { try data.findFeed($0).uniqueID }
            return try await data.markAllRead(ArticleFilter(feedID: feedID, publishedBefore: before?.date), read: read)
        }
        console.line("Marked \(Output.plural(changed, "article")) \(read ? "read" : "unread").")
    }
}
