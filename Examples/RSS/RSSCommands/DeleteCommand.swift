import ArgumentParser
import CommandLineTool
import RSSCore

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete old read articles, or a feed with all its articles.",
        discussion: """
            --read-older-than DAYS deletes read, unstarred articles published more than DAYS days ago (in one feed with --feed).
            --feed alone unsubscribes: the feed and all its articles go.
            Authors no article refers to any more are deleted too.
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("Delete read articles older than this many days.", valueName: "days")) var readOlderThan: Int?
    @Option(help: ArgumentHelp("The feed (URL, title, or part of the URL).", valueName: "feed")) var feed: String?

    func validate() throws {
        if readOlderThan == nil, feed == nil { throw ValidationError("use --read-older-than DAYS, --feed FEED, or both") }
        if let readOlderThan, readOlderThan < 0 { throw ValidationError("--read-older-than must not be negative") }
    }

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        let message = try await options.withData { data in
            let target = try feed.map { try data.findFeed($0) }
            let text: String
            if let days = readOlderThan {
                let count = try await data.deleteReadArticles(olderThanDays: days, feedID: target?.uniqueID)
                text = "Deleted \(Output.plural(count, "read article")) older than \(Output.plural(days, "day"))."
            } else if let target {
                let count = try await data.deleteFeed(target)
                text = "Deleted the feed \(target.displayName) and its \(Output.plural(count, "article"))."
            } else {
                text = ""
            }
            let authors = try await data.deleteOrphanedAuthors()
            return authors > 0 ? text + " (\(Output.plural(authors, "author")) no longer credited were deleted too.)" : text
        }
        console.line(message)
    }
}
