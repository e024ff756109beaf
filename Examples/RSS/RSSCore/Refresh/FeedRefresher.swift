import FeedParser
import Foundation
import QSData

/// Keeps subscriptions current: downloads every subscribed http(s) feed again and stores what
/// changed.
///
/// Each download is a conditional GET with the feed's stored `ETag` and `Last-Modified`; a 304
/// costs no parsing and no writes. A permanent redirect (every hop 301 or 308) records the new
/// address on the feed, whose ID and articles stay as they are. Several feeds download at once,
/// at most a few from any one host, each within the fetcher's time limit; a feed that fails is
/// reported and keeps its articles. Read and starred state is never written (see ``FeedWriter``).
/// ```swift
/// let refresher = FeedRefresher(data: controller)
/// let summary = await refresher.refresh()
/// print(summary.fetched, summary.notModified, summary.articles.new, summary.failures)
/// ```
@MainActor
public final class FeedRefresher {
    private let data: RSSDataController
    private let fetcher: FeedFetcher
    private let maximumConcurrentFetches: Int
    private let maximumFetchesPerHost: Int
    /// Called as feeds are refreshed.
    public var onEvent: (@MainActor (RefreshEvent) -> Void)?

    public init(data: RSSDataController, fetcher: FeedFetcher = FeedFetcher(),
                maximumConcurrentFetches: Int = 8, maximumFetchesPerHost: Int = 2) {
        self.data = data
        self.fetcher = fetcher
        self.maximumConcurrentFetches = max(1, maximumConcurrentFetches)
        self.maximumFetchesPerHost = max(1, maximumFetchesPerHost)
    }

    /// One feed to download.
    struct Job: Sendable {
        let feedID: String
        let request: FeedFetcher.Request
        var host: String { request.url.host?.lowercased() ?? "" }
    }

    /// A feed after downloading and parsing, off the main actor.
    enum Fetched: Sendable {
        case notModified(Job, FeedFetcher.Result)
        case parsed(Job, FeedFetcher.Result, FeedFetcher.Document, ParsedFeed)
        case failed(Job, String, requests: Int, bytes: Int)

        var job: Job {
            switch self {
            case .notModified(let job, _), .parsed(let job, _, _, _), .failed(let job, _, _, _): job
            }
        }
    }

    /// Refreshes `feeds`, or every subscribed feed read over http(s) when `nil`. Feeds read from
    /// files are left alone (re-import them).
    public func refresh(_ feeds: [Feed]? = nil) async -> RefreshSummary {
        let started = ContinuousClock.now
        var summary = RefreshSummary()
        var pending = (feeds ?? data.feeds).compactMap(Self.job(for:))
        summary.feeds = pending.count
        onEvent?(.started(total: pending.count))

        let fetcher = self.fetcher
        await withTaskGroup(of: Fetched.self) { group in
            var running = 0
            var runningPerHost: [String: Int] = [:]
            while true {
                while running < maximumConcurrentFetches,
                      let index = pending.firstIndex(where: { runningPerHost[$0.host, default: 0] < maximumFetchesPerHost }) {
                    let job = pending.remove(at: index)
                    running += 1
                    runningPerHost[job.host, default: 0] += 1
                    group.addTask { await Self.fetch(job, with: fetcher) }
                }
                guard let fetched = await group.next() else { break }
                running -= 1
                runningPerHost[fetched.job.host, default: 1] -= 1
                await handle(fetched, in: &summary)
            }
        }
        summary.seconds = (ContinuousClock.now - started).inSeconds
        return summary
    }

    private static func job(for feed: Feed) -> Job? {
        guard let url = URL(string: feed.currentAddress), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            return nil
        }
        return Job(feedID: feed.uniqueID, request: FeedFetcher.Request(url: url, etag: feed.etag, lastModified: feed.lastModified))
    }

    // MARK: Off the main actor

    /// Downloads and parses one feed. Runs on the global executor, so several run at once.
    nonisolated static func fetch(_ job: Job, with fetcher: FeedFetcher) async -> Fetched {
        let result: FeedFetcher.Result
        do {
            result = try await fetcher.fetch(job.request)
        } catch {
            return .failed(job, error.description, requests: 0, bytes: 0)
        }
        guard case .fetched(let document) = result.outcome else { return .notModified(job, result) }
        guard let identity = URL(string: job.feedID) else {
            return .failed(job, "the feed's ID is not a URL", requests: result.requests, bytes: result.bytes)
        }
        do {
            let parsed = try FeedParser.parse(data: document.data, url: identity, documentURL: document.url)
            return .parsed(job, result, document, parsed)
        } catch {
            return .failed(job, FeedImporter.describe(error), requests: result.requests, bytes: result.bytes)
        }
    }

    // MARK: On the main actor

    private func handle(_ fetched: Fetched, in summary: inout RefreshSummary) async {
        switch fetched {
        case .failed(let job, let reason, let requests, let bytes):
            summary.requests += max(1, requests)
            summary.bytes += bytes
            fail(job, reason, in: &summary)
        case .notModified(let job, let result):
            summary.count(result)
            summary.notModified += 1
            if let moved = result.movedTo { record(moved, for: job, in: &summary) }
            onEvent?(.notModified(feed: job.feedID))
        case .parsed(let job, let result, let document, let parsed):
            summary.count(result)
            await store(parsed, of: job, document: document, movedTo: result.movedTo, in: &summary)
        }
    }

    private func store(_ parsed: ParsedFeed, of job: Job, document: FeedFetcher.Document, movedTo: URL?,
                       in summary: inout RefreshSummary) async {
        let writer = FeedWriter(data: data)
        let articles: StoredArticles
        do {
            let write = try writer.save(parsed, feedID: job.feedID) { feed in
                feed.etag = document.etag
                feed.lastModified = document.lastModified
                if let movedTo { feed.address = Self.address(movedTo, feedID: job.feedID) }
            }
            articles = try await writer.finish(write, parsed: parsed, feedID: job.feedID)
        } catch {
            fail(job, "not stored: \(error)", in: &summary)
            return
        }
        summary.fetched += 1
        summary.articles.add(articles)
        if let movedTo { announce(FeedMove(feed: job.feedID, from: job.request.url.absoluteString, to: movedTo.absoluteString), in: &summary) }
        onEvent?(.fetched(feed: job.feedID, title: parsed.title ?? job.feedID, articles: articles))
        if let warning = FeedWriter.unreadItemsWarning(parsed) {
            let failure = ImportFailure(source: job.request.url.absoluteString, reason: warning)
            summary.warnings.append(failure)
            onEvent?(.warned(failure))
        }
    }

    /// Records a permanent move found by a 304 answer (a 200 records it with its other changes).
    private func record(_ movedTo: URL, for job: Job, in summary: inout RefreshSummary) {
        do {
            guard let feed = try data.store.cachedObject(of: Feed.self, id: job.feedID) else { return }
            feed.address = Self.address(movedTo, feedID: job.feedID)
            try data.store.save(feed)
        } catch {
            fail(job, "its new address was not stored: \(error)", in: &summary)
            return
        }
        announce(FeedMove(feed: job.feedID, from: job.request.url.absoluteString, to: movedTo.absoluteString), in: &summary)
    }

    private func announce(_ move: FeedMove, in summary: inout RefreshSummary) {
        summary.moved.append(move)
        onEvent?(.moved(move))
    }

    /// `nil` when the feed moved back to the URL it was subscribed at.
    private static func address(_ url: URL, feedID: String) -> String? {
        url.absoluteString == feedID ? nil : url.absoluteString
    }

    private func fail(_ job: Job, _ reason: String, in summary: inout RefreshSummary) {
        let failure = ImportFailure(source: job.request.url.absoluteString, reason: reason)
        summary.failures.append(failure)
        onEvent?(.failed(failure))
    }
}

extension RefreshSummary {
    mutating func count(_ result: FeedFetcher.Result) {
        requests += result.requests
        bytes += result.bytes
    }
}
