import FeedParser
import Foundation
import QSData

/// Keeps subscriptions current: downloads every subscribed http(s) feed again and stores what
/// changed.
///
/// Each download is a conditional GET with the feed's stored `ETag` and `Last-Modified`; a 304
/// costs no parsing and no writes. A permanent redirect (every hop 301 or 308) records the new
/// address on the feed, whose ID and articles stay as they are, and remembers it among the
/// addresses the feed is known by. Several feeds download at once, within the
/// ``DownloadLimits``, each within the fetcher's time limit; a feed that fails is reported and
/// keeps its articles. A host that answers 429 or 503 with `Retry-After` is left alone until
/// then, in this refresh and the next ones: its feeds are postponed, not failed. When the first
/// downloads all fail to find their hosts' addresses, the machine is taken to be offline and the
/// feeds still waiting fail at once (see ``OfflineDetector``). After a feed's
/// document is stored, the articles it no longer lists are recorded as having left the feed and
/// pruned by the ``ArticleRetention`` rule. Read and starred state is never written (see ``FeedWriter``).
/// ```swift
/// let refresher = FeedRefresher(data: controller)
/// let summary = await refresher.refresh()
/// print(summary.fetched, summary.notModified, summary.articles.new, summary.failures)
/// ```
@MainActor
public final class FeedRefresher {
    private let data: RSSDataController
    private let fetcher: FeedFetcher
    private let limits: DownloadLimits
    private let retention: ArticleRetention?
    private let now: () -> Date
    /// Called as feeds are refreshed.
    public var onEvent: (@MainActor (RefreshEvent) -> Void)?

    /// - Parameters:
    ///   - retention: Which articles that left their feed are deleted; `nil` keeps them all.
    ///   - now: The time, for `Retry-After` and retention; tests pass a clock they move.
    public init(data: RSSDataController, fetcher: FeedFetcher = FeedFetcher(), limits: DownloadLimits = .standard,
                retention: ArticleRetention? = .standard, now: @escaping () -> Date = Date.init) {
        self.data = data
        self.fetcher = fetcher
        self.limits = limits
        self.retention = retention
        self.now = now
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
        case failed(Job, FeedFetcher.FetchError)
        case unparsable(Job, String, requests: Int, bytes: Int)

        /// Whether the download failed because its host name has no address.
        var lookupFailed: Bool {
            if case .failed(_, let error) = self, case .network(.hostNotFound) = error.failure { return true }
            return false
        }

        var job: Job {
            switch self {
            case .notModified(let job, _), .parsed(let job, _, _, _), .failed(let job, _), .unparsable(let job, _, _, _): job
            }
        }
    }

    /// Refreshes `feeds`, or every subscribed feed read over http(s) when `nil`. Feeds read from
    /// files are left alone (re-import them).
    public func refresh(_ feeds: [Feed]? = nil) async -> RefreshSummary {
        let started = ContinuousClock.now
        var summary = RefreshSummary()
        let jobs = (feeds ?? data.feeds).compactMap(Self.job(for:))
        summary.feeds = jobs.count
        onEvent?(.started(total: jobs.count))

        let pauses = currentPauses(in: &summary)
        var queue = HostLimitedQueue<Job>(limits: limits, host: \.host)
        for job in jobs {
            if let pause = pauses[job.host] {
                postpone(job, pause, in: &summary)
            } else {
                queue.append(job)
            }
        }

        let fetcher = self.fetcher
        var offline = OfflineDetector()
        await withTaskGroup(of: Fetched.self) { group in
            while true {
                while let job = queue.start() {
                    if offline.seemsOffline {
                        fail(job, offline.reason, in: &summary)
                        queue.finish(job)
                        continue
                    }
                    group.addTask { await Self.fetch(job, with: fetcher) }
                }
                guard let fetched = await group.next() else { break }
                queue.finish(fetched.job)
                offline.record(lookupFailed: fetched.lookupFailed)
                // A wait already over (`Retry-After: 0`, a date gone by) pauses nothing: the feed failed.
                if case .failed(let job, let error) = fetched, case .askedToWait(let status, let retryAfter) = error.failure,
                   retryAfter.end(after: now()) > now() {
                    summary.requests += error.requests
                    summary.bytes += error.bytes
                    let pause = pauseHost(job.host, status: status, retryAfter: retryAfter, in: &summary)
                    postpone(job, pause, in: &summary)
                    for waiting in queue.removeWaiting(host: job.host) { postpone(waiting, pause, in: &summary) }
                    continue
                }
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
            return .failed(job, error)
        }
        guard case .fetched(let document) = result.outcome else { return .notModified(job, result) }
        guard let identity = URL(string: job.feedID) else {
            return .unparsable(job, "the feed's ID is not a URL", requests: result.requests, bytes: result.bytes)
        }
        do {
            let parsed = try FeedParser.parse(data: document.data, url: identity, documentURL: document.url)
            return .parsed(job, result, document, parsed)
        } catch {
            return .unparsable(job, FeedImporter.describe(error), requests: result.requests, bytes: result.bytes)
        }
    }

    // MARK: On the main actor

    private func handle(_ fetched: Fetched, in summary: inout RefreshSummary) async {
        switch fetched {
        case .failed(let job, let error):
            summary.requests += error.requests
            summary.bytes += error.bytes
            fail(job, error.description, in: &summary)
        case .unparsable(let job, let reason, let requests, let bytes):
            summary.requests += requests
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
            let write = try writer.save(parsed, feedID: job.feedID, addresses: movedTo.map { [$0] } ?? []) { feed in
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
        // A document with items the parser could not read, or one cut off before its end, may
        // not list every article it holds: its absences say nothing.
        let isComplete = parsed.unreadItemCount == 0 && !parsed.warnings.contains { $0.problem == .truncated }
        if isComplete { await prune(job, keeping: Set(parsed.items.map(\.uniqueID)), in: &summary) }
        if let movedTo { announce(FeedMove(feed: job.feedID, from: job.request.url.absoluteString, to: movedTo.absoluteString), in: &summary) }
        onEvent?(.fetched(feed: job.feedID, title: parsed.title ?? job.feedID, articles: articles))
        if let warning = FeedWriter.unreadItemsWarning(parsed) {
            let failure = ImportFailure(source: job.request.url.absoluteString, reason: warning)
            summary.warnings.append(failure)
            onEvent?(.warned(failure))
        }
        for repair in FeedWriter.repairs(parsed.warnings, source: job.request.url.absoluteString) {
            summary.repairs.append(repair)
            onEvent?(.warned(repair))
        }
    }

    /// Records a permanent move found by a 304 answer (a 200 records it with its other changes).
    private func record(_ movedTo: URL, for job: Job, in summary: inout RefreshSummary) {
        do {
            guard let feed = try data.store.cachedObject(of: Feed.self, id: job.feedID) else { return }
            feed.address = Self.address(movedTo, feedID: job.feedID)
            let addresses = FeedWriter(data: data).newAddresses([movedTo], feedID: job.feedID)
            try data.store.performBatch {
                try data.store.save(feed)
                try data.store.save(addresses)
            }
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

    /// Records which articles the feed's document no longer lists, then deletes those the
    /// retention rule lets go.
    private func prune(_ job: Job, keeping current: Set<String>, in summary: inout RefreshSummary) async {
        do {
            try await data.recordArticlesLeft(feed: job.feedID, listing: current, now: now())
            guard let retention else { return }
            summary.prunedArticles += try await data.pruneArticles(retention, feedID: job.feedID, now: now())
        } catch {
            fail(job, "stored, but its old articles were not pruned: \(error)", in: &summary)
        }
    }

    // MARK: Hosts that asked to wait

    /// The hosts still asking to wait, by name; pauses that have ended are deleted.
    private func currentPauses(in summary: inout RefreshSummary) -> [String: HostPause] {
        let all: [HostPause]
        do {
            all = try data.store.cachedObjects(of: HostPause.self)
        } catch {
            summary.warnings.append(ImportFailure(source: "hosts", reason: "which hosts asked to wait is unknown: \(error)"))
            return [:]
        }
        let time = now()
        let ended = all.filter { $0.until <= time }
        if !ended.isEmpty {
            do {
                try data.store.delete(HostPause.self, ids: ended.map(\.uniqueID))
            } catch {
                summary.warnings.append(ImportFailure(source: "hosts", reason: "ended waits were not cleared: \(error)"))
            }
        }
        return Dictionary(all.filter { $0.until > time }.map { ($0.uniqueID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Records that `host` asked to wait, so that this refresh and the next ones leave it alone.
    private func pauseHost(_ host: String, status: Int, retryAfter: RetryAfter, in summary: inout RefreshSummary) -> HostPause {
        let pause = HostPause(uniqueID: host, reason: "HTTP \(status) with Retry-After", until: retryAfter.end(after: now()))
        do {
            try data.store.save(pause)
        } catch {
            summary.warnings.append(ImportFailure(source: host, reason: "its Retry-After was not stored: \(error)"))
        }
        return pause
    }

    private func postpone(_ job: Job, _ pause: HostPause, in summary: inout RefreshSummary) {
        let postponed = PostponedFeed(feed: job.request.url.absoluteString, host: pause.uniqueID, until: pause.until, reason: pause.reason)
        summary.postponed.append(postponed)
        onEvent?(.postponed(postponed))
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
