import ArgumentParser
import CommandLineTool

/// `rss`: an RSS reader on the command line, built on QSData.
public struct RSSCommand: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rss",
        abstract: "An RSS reader on the command line, built on QSData.",
        discussion: ToolHelp.discussion(
            """
            Imports feeds (files, folders, http(s) URLs, OPML lists) into one SQLite database and \
            reads them. Commands take --database to name the database; those that print results \
            print JSON with --json.
            """,
            examples: [
                "rss import ~/feeds subscriptions.opml https://inessential.com/feed.json",
                "rss refresh",
                "rss list --unread --limit 20",
                "rss show <article ID>",
                "rss mark-read --all",
                "rss prune --dry-run",
                "rss account create --server http://127.0.0.1:8090/ --username ann",
                "rss sync",
            ]),
        subcommands: [
            ImportCommand.self, RefreshCommand.self, FeedsCommand.self, ListCommand.self, SearchCommand.self, ShowCommand.self,
            MarkReadCommand.self, MarkUnreadCommand.self, StarCommand.self, UnstarCommand.self,
            PruneCommand.self, DeleteCommand.self, StatsCommand.self, DemoCommand.self, AccountCommand.self, SyncCommand.self,
        ])

    public init() {}
}

/// A command finished its work but some of it failed; its details are already printed.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}
