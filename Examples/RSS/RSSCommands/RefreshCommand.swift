import ArgumentParser
import CommandLineTool
import Foundation
import RSSCore

struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Download the subscribed http(s) feeds again and store their new articles.",
        discussion: "Each feed is fetched with the ETag and Last-Modified of its last download: an unchanged feed costs one request, no parsing and no writes. A permanent redirect moves the subscription to the new address. A host answering 429 or 503 with Retry-After is not asked again before then; its feeds are postponed. Articles that left their feed are deleted once read, unstarred and older than --keep-days. Read and starred state is kept. The exit status is 1 when any feed failed or had unreadable items.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("feed"), help: ArgumentHelp("Refresh only this feed (URL, title, or a unique part of its URL).", valueName: "name"))
    var feed: String?

    @Option(help: ArgumentHelp("Seconds one feed's download may take, redirects included.", valueName: "seconds"))
    var timeout: Double = 30

    @OptionGroup var limits: DownloadLimitOptions

    @Option(name: .customLong("keep-days"), help: ArgumentHelp(
        "Days after publication that a read, unstarred article no longer in its feed is kept before it is deleted.", valueName: "days"))
    var keepDays = ArticleRetention.standard.days

    @Flag(name: .customLong("keep-all"), help: "Delete no article, even one that left its feed long ago.")
    var keepAll = false

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
        guard keepDays >= 0 else { throw ValidationError("--keep-days must not be negative") }
    }

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        let summary = try await options.withData { data in
            let feeds = try feed.map { [try data.findFeed($0)] }
            let retention = keepAll ? nil : try ArticleRetention(days: keepDays)
            let refresher = FeedRefresher(data: data, fetcher: FeedFetcher(timeout: .seconds(timeout)), limits: limits.limits,
                                          retention: retention)
            let progress = ProgressView.forRefresh(console: console, showsFeeds: !output.json)
            refresher.onEvent = { progress.show($0) }
            let summary = await refresher.refresh(feeds)
            progress.finish()
            return summary
        }
        if output.json {
            console.line(try Output.json(summary))
        } else {
            let moved = summary.moved.isEmpty ? "" : ", \(summary.moved.count) moved"
            let postponed = summary.postponed.isEmpty ? "" : ", \(Output.count(summary.postponed.count)) postponed"
            let repaired = summary.repairs.isEmpty ? "" : ", \(Output.plural(summary.repairs.count, "repair"))"
            let pruned = summary.prunedArticles > 0 ? ", \(Output.count(summary.prunedArticles)) old pruned" : ""
            console.line("Refreshed \(Output.plural(summary.feeds, "feed")) in \(String(format: "%.2f", summary.seconds)) s: "
                + "\(Output.count(summary.fetched)) fetched, \(Output.count(summary.notModified)) not modified, "
                + "\(Output.count(summary.failures.count)) failed\(moved)\(postponed)\(repaired); articles: \(Output.describe(summary.articles))\(pruned) "
                + "(\(Output.plural(summary.requests, "request")), \(Output.count(summary.bytes)) bytes)")
            for failure in summary.failures { console.line("  failed \(failure.source): \(failure.reason)") }
            for feed in summary.postponed {
                console.line("  postponed \(feed.feed): \(feed.host) asked to wait until \(Output.date(feed.until)) UTC (\(feed.reason))")
            }
        }
        if !summary.failures.isEmpty {
            throw CommandFailure(description: "\(Output.plural(summary.failures.count, "feed")) could not be refreshed")
        }
        if !summary.warnings.isEmpty {
            throw CommandFailure(description: "\(Output.plural(summary.warnings.count, "feed")) had items left unread (listed above)")
        }
    }
}
