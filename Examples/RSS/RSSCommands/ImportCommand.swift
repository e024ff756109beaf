import ArgumentParser
import CommandLineTool
import DeadlineHTTP
import Foundation
import RSSCore

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import feeds from files, folders, http(s) URLs and OPML subscription lists.",
        discussion: "Re-importing a feed adds nothing twice: only new and changed articles are written, and read and starred state is kept. A source that fails is reported and skipped; the rest import. A feed with items the reader cannot read is imported with a warning. Items repeating an ID are stored once (the first in the document) and counted as duplicates. The exit status is 1 when any source failed or any feed had unreadable items.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp(
        "Seconds each download may take in all: connecting, waiting, and the whole transfer.", valueName: "seconds"))
    var timeout: Double = 60

    @Option(name: .long, help: ArgumentHelp("Seconds to establish a connection to a feed's server.", valueName: "seconds"))
    var connectTimeout: Double = 10

    @Argument(help: ArgumentHelp("Feed files, folders of feeds, http(s) URLs or OPML files.", valueName: "source"))
    var sources: [String]

    @OptionGroup var limits: DownloadLimitOptions

    @Flag(name: .customLong("no-fetch"),
          help: "Subscribe to http(s) feeds (named here or listed in local OPML files) without downloading them; `rss refresh` fetches them.")
    var noFetch = false

    func validate() throws {
        if sources.isEmpty { throw ValidationError("name at least one file, folder or URL to import") }
        if !(timeout > 0 && connectTimeout > 0) { throw ValidationError("--timeout and --connect-timeout must be positive") }
    }

    func run() async throws { try await execute() }

    /// "subscribed to 2 feeds without fetching (5 already subscribed); ", or nothing when no feed
    /// was subscribed without fetching.
    static func subscribedText(_ summary: ImportSummary) -> String {
        guard summary.subscribedFeeds + summary.alreadySubscribedFeeds > 0 else { return "" }
        let already = summary.alreadySubscribedFeeds > 0 ? " (\(Output.count(summary.alreadySubscribedFeeds)) already subscribed)" : ""
        return "subscribed to \(Output.plural(summary.subscribedFeeds, "new feed")) without fetching\(already); "
    }

    private var deadlines: HTTPDeadlines { HTTPDeadlines(totalSeconds: timeout, connectSeconds: connectTimeout) }

    @MainActor private func execute() async throws {
        let console = Console.current
        let locations = try sources.map { try FeedLocation(argument: $0) }
        let summary = try await options.withData { data in
            let importer = FeedImporter(data: data, loader: FeedLoader(deadlines: deadlines), limits: limits.limits)
            importer.fetchesRemoteFeeds = !noFetch
            let progress = ProgressView.forImport(console: console, showsFeeds: !output.json)
            importer.onEvent = { progress.show($0) }
            let summary = await importer.importFeeds(from: locations)
            progress.finish()
            return summary
        }
        if output.json {
            console.line(try Output.json(summary))
        } else {
            let subscribed = Self.subscribedText(summary)
            let duplicates = summary.duplicateArticles > 0 ? ", \(Output.count(summary.duplicateArticles)) duplicates" : ""
            let warningCount = summary.warnings.count + summary.repairs.count
            let warnings = warningCount == 0 ? "" : ", \(Output.plural(warningCount, "warning"))"
            console.line("Imported \(Output.plural(summary.feeds, "feed")) in \(String(format: "%.2f", summary.seconds)) s: \(subscribed)"
                + "\(Output.count(summary.newArticles)) new, \(Output.count(summary.updatedArticles)) updated, "
                + "\(Output.count(summary.unchangedArticles)) unchanged articles\(duplicates); "
                + "\(Output.count(summary.skippedFeeds)) skipped\(warnings) (\(Output.count(Int(summary.articlesPerSecond))) articles/s)")
        }
        if !summary.failures.isEmpty {
            throw CommandFailure(description: "\(Output.plural(summary.failures.count, "source")) could not be imported (listed above)")
        }
        if !summary.warnings.isEmpty {
            throw CommandFailure(description: "\(Output.plural(summary.warnings.count, "feed")) imported with items left unread (listed above)")
        }
    }
}
