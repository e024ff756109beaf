import ArgumentParser
import CommandLineTool
import RSSCore

struct FeedsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "feeds", abstract: "List the feeds with their unread counts.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        try await options.withData { data in
            let feeds = data.feeds
            if output.json {
                console.line(try Output.json(feeds.map { FeedJSON($0, unread: data.unreadCount(ofFeed: $0.uniqueID)) }))
                return
            }
            if feeds.isEmpty { console.line("No feeds yet: try `rss import <file, folder or URL>`.") }
            for feed in feeds {
                let unread = data.unreadCount(ofFeed: feed.uniqueID)
                let folder = feed.folder.map { "\($0)/" } ?? ""
                let moved = feed.address.map { " → <\($0)>" } ?? ""
                console.line("\(String(repeating: " ", count: max(0, 6 - String(unread).count)))\(unread)  \(folder)\(feed.displayName)  <\(feed.uniqueID)>\(moved)")
            }
        }
    }
}
