import FeedParser
import Foundation
import QSData

/// Imports feeds into the reader: files, directories, http(s) URLs and OPML lists.
///
/// Documents are read and parsed off the main actor, as many at once as the ``DownloadLimits``
/// allow (a few per host, so a long subscription list downloads as widely as a refresh does);
/// each parsed feed is then stored with its own saves (the feed, then its articles in one
/// transaction). Re-importing writes only what changed: the store skips unchanged rows, and the
/// importer saves ``ArticleContent``, which has no read or starred column, so the user's state
/// survives. A download stores the server's validators with the feed, so the next refresh is a
/// conditional GET, and a permanent redirect records the feed's new address. An address a feed
/// is already known by (its first URL, or one it moved to) imports into that feed. A source that
/// can't be read or parsed is reported and skipped; the others import. When the first downloads
/// all fail to find their hosts' addresses, the machine is taken to be offline and the http(s)
/// sources still waiting are skipped at once, each saying why (see ``OfflineDetector``). A feed stored with fewer
/// articles than its document holds is reported as a warning, and items that repeat an ID are
/// counted as duplicates (``FeedWriter`` says which copy is kept).
/// ```swift
/// let importer = FeedImporter(data: controller)
/// importer.onEvent = { print($0) }
/// let summary = await importer.importFeeds(from: [try FeedLocation(argument: "feeds/")])
/// ```
@MainActor
public final class FeedImporter {
    private let data: RSSDataController
    private let loader: FeedLoader
    private let limits: DownloadLimits
    /// Called as sources are discovered, stored or skipped.
    public var onEvent: (@MainActor (ImportEvent) -> Void)?
    /// When `false`, http(s) feeds (named directly or listed in a local OPML file) are subscribed
    /// without being downloaded: `rss refresh` does the network work later.
    public var fetchesRemoteFeeds = true

    public init(data: RSSDataController, loader: FeedLoader = FeedLoader(), limits: DownloadLimits = .standard) {
        self.data = data
        self.loader = loader
        self.limits = limits
    }

    /// One source to read, with what an OPML list said about it.
    struct Job: Sendable {
        let location: FeedLocation
        /// The URL of the feed it imports into: the location's, or that of the feed already
        /// known at that address. Articles' IDs are made from it.
        let identity: URL
        var title: String?
        var folder: String?

        var feedID: String { identity.absoluteString }
        /// Downloads are limited per host; files are not.
        var host: String? {
            guard case .remote(let url) = location else { return nil }
            return url.host?.lowercased() ?? ""
        }
    }

    /// What a download said about a feed, stored with it.
    struct Origin: Sendable {
        var etag: String?
        var lastModified: String?
        /// The address it was read from, after any permanent redirects.
        var address: URL
    }

    /// A source after reading and parsing.
    enum Loaded: Sendable {
        case feed(Job, ParsedFeed, Origin?)
        case subscriptionList(Job, OPMLDocument)
        /// `lookupFailed`: a download whose host name had no address.
        case failed(Job, String, lookupFailed: Bool = false)

        var lookupFailed: Bool {
            if case .failed(_, _, lookupFailed: true) = self { return true }
            return false
        }

        var job: Job {
            switch self {
            case .feed(let job, _, _), .subscriptionList(let job, _), .failed(let job, _, _): job
            }
        }
    }

    /// A job for `location`, importing into the feed already known at its address if any.
    private func job(_ location: FeedLocation, title: String? = nil, folder: String? = nil) -> Job {
        let identity = data.feed(knownAt: location.url.absoluteString).flatMap { URL(string: $0.uniqueID) } ?? location.url
        return Job(location: location, identity: identity, title: title, folder: folder)
    }

    /// Imports everything `locations` name and returns what happened.
    public func importFeeds(from locations: [FeedLocation]) async -> ImportSummary {
        let started = ContinuousClock.now
        var summary = ImportSummary()
        var queue = HostLimitedQueue<Job>(limits: limits, host: \.host)
        // Each feed is read once, however many of its addresses are named.
        var seen: Set<String> = []
        var discovered = 0
        var offline = OfflineDetector()
        func enqueue(_ job: Job) {
            guard seen.insert(job.feedID).inserted else { return }
            queue.append(job)
            discovered += 1
        }
        // 1. Directories become their files; a path that isn't there is a failure at once.
        for location in locations {
            switch expand(location) {
            case .success(let files): files.forEach { enqueue(job($0)) }
            case .failure(let failure):
                record(failure, in: &summary)
                discovered += 1
            }
        }
        onEvent?(.discovered(total: discovered))

        // Feeds whose write is enqueued but not yet known to have committed: a few stay in
        // flight so that storing one feed overlaps with handing over the next.
        var inFlight: [StoringFeed] = []

        // 2. Read and parse off the main actor, within the limits; store each feed as it arrives.
        let loader = self.loader
        await withTaskGroup(of: Loaded.self) { group in
            while true {
                while let job = queue.start() {
                    if !fetchesRemoteFeeds, case .remote = job.location {
                        subscribe(job, in: &summary)
                        queue.finish(job)
                        continue
                    }
                    if offline.seemsOffline, case .remote = job.location {
                        record(ImportFailure(source: job.location.description, reason: offline.reason), in: &summary)
                        queue.finish(job)
                        continue
                    }
                    group.addTask { await Self.load(job, with: loader) }
                }
                guard let loaded = await group.next() else { break }
                queue.finish(loaded.job)
                if case .remote = loaded.job.location { offline.record(lookupFailed: loaded.lookupFailed) }
                switch loaded {
                case .failed(let job, let reason, _):
                    record(ImportFailure(source: job.location.description, reason: reason), in: &summary)
                case .subscriptionList(let job, let list):
                    // 3. A subscription list adds its feeds to the queue, each feed once; an
                    // address that is not a URL is reported, never silently dropped.
                    for repair in FeedWriter.repairs(list.warnings, source: job.location.description) {
                        summary.repairs.append(repair)
                        onEvent?(.warned(repair))
                    }
                    for address in list.unusableFeedAddresses {
                        record(ImportFailure(source: address, reason: "not a URL in \(job.location.description) (write file:// or http(s)://)"), in: &summary)
                        discovered += 1
                    }
                    for entry in list.feeds {
                        guard let location = FeedLocation(url: entry.feedURL) else {
                            record(ImportFailure(source: entry.feedURL.absoluteString, reason: "only http, https and file URLs can be imported"), in: &summary)
                            continue
                        }
                        let folder = entry.folderPath.isEmpty ? nil : entry.folderPath.joined(separator: "/")
                        enqueue(self.job(location, title: entry.title, folder: folder))
                    }
                    onEvent?(.discovered(total: discovered))
                case .feed(let job, let parsed, let origin):
                    do {
                        let write = try save(parsed, of: job, origin: origin)
                        inFlight.append(StoringFeed(job: job, parsed: parsed, write: write))
                    } catch {
                        record(ImportFailure(source: job.location.description, reason: "not stored: \(error)"), in: &summary)
                    }
                    if inFlight.count >= Self.feedsInFlight {
                        await finish(inFlight.removeFirst(), in: &summary)
                    }
                }
            }
        }
        for storing in inFlight {
            await finish(storing, in: &summary)
        }
        summary.seconds = (ContinuousClock.now - started).inSeconds
        return summary
    }

    /// Hands a parsed feed to the store, with the validators and address of its download.
    private func save(_ parsed: ParsedFeed, of job: Job, origin: Origin?) throws -> QSWrite {
        let addresses = [job.location.url] + (origin.map { [$0.address] } ?? [])
        return try FeedWriter(data: data).save(parsed, feedID: job.feedID, addresses: addresses) { feed in
            feed.title = parsed.title ?? job.title ?? feed.title
            feed.folder = job.folder ?? feed.folder
            if let origin {
                feed.etag = origin.etag
                feed.lastModified = origin.lastModified
                feed.address = origin.address.absoluteString == job.feedID ? nil : origin.address.absoluteString
            }
        }
    }

    /// How many feeds may be written but not yet confirmed at once.
    static let feedsInFlight = 4

    /// A feed handed to the store, waiting for its transaction to commit.
    private struct StoringFeed {
        let job: Job
        let parsed: ParsedFeed
        let write: QSWrite
    }

    /// Waits for a feed's write to commit, then counts what it changed and reports it.
    private func finish(_ storing: StoringFeed, in summary: inout ImportSummary) async {
        let job = storing.job
        let feedID = job.feedID
        let articles: StoredArticles
        do {
            articles = try await FeedWriter(data: data).finish(storing.write, parsed: storing.parsed, feedID: feedID)
        } catch {
            record(ImportFailure(source: job.location.description, reason: "not stored: \(error)"), in: &summary)
            return
        }
        summary.add(articles)
        onEvent?(.imported(source: job.location.description, title: storing.parsed.title ?? job.title ?? job.location.description,
                           articles: articles))
        if let warning = FeedWriter.unreadItemsWarning(storing.parsed) {
            let failure = ImportFailure(source: job.location.description, reason: warning)
            summary.warnings.append(failure)
            onEvent?(.warned(failure))
        }
        for repair in FeedWriter.repairs(storing.parsed.warnings, source: job.location.description) {
            summary.repairs.append(repair)
            onEvent?(.warned(repair))
        }
    }

    /// Subscribes to a remote feed without reading it: the feed row only, with what an OPML list
    /// said about it. A feed already subscribed (at this address or one it moved from or to)
    /// keeps its articles, gains the list's folder and is counted as already subscribed.
    private func subscribe(_ job: Job, in summary: inout ImportSummary) {
        let existing = data.feed(id: job.feedID)
        do {
            let feed = existing ?? Feed(uniqueID: job.feedID)
            feed.title = feed.title ?? job.title
            feed.folder = job.folder ?? feed.folder
            try data.store.save(feed)
        } catch {
            record(ImportFailure(source: job.location.description, reason: "not stored: \(error)"), in: &summary)
            return
        }
        if existing == nil {
            summary.subscribedFeeds += 1
        } else {
            summary.alreadySubscribedFeeds += 1
        }
        onEvent?(.subscribed(source: job.location.description))
    }

    private func record(_ failure: ImportFailure, in summary: inout ImportSummary) {
        summary.failures.append(failure)
        onEvent?(.failed(failure))
    }

    // MARK: Reading, off the main actor

    /// Reads and parses one source. Runs on the global executor, so several run at once.
    nonisolated static func load(_ job: Job, with loader: FeedLoader) async -> Loaded {
        let document: FeedLoader.Document
        do {
            document = try await loader.document(at: job.location)
        } catch {
            return .failed(job, error.description, lookupFailed: error.isHostNotFound)
        }
        let origin = document.download.map { download in
            Origin(etag: download.etag, lastModified: download.lastModified, address: document.movedTo ?? job.location.url)
        }
        do {
            if FeedParser.detectFormat(data: document.data) == .opml {
                let list = try OPMLParser.parse(data: document.data)
                return .subscriptionList(job, list)
            }
            let parsed = try FeedParser.parse(data: document.data, url: job.identity, documentURL: document.download?.url)
            return .feed(job, parsed, origin)
        } catch {
            return .failed(job, describe(error))
        }
    }

    /// A parser error in words, with the position for ill-formed XML.
    nonisolated static func describe(_ error: FeedParserError) -> String {
        switch error {
        case .emptyData: return "empty document"
        case .unsupportedFormat: return "not RSS, RDF, Atom, JSON Feed or OPML"
        case .unexpectedFormat(let format): return "unexpected \(format.rawValue) document"
        case .malformedXML(_, let line, let column, let message):
            let detail = message.trimmingCharacters(in: .whitespacesAndNewlines)
            return "ill-formed XML at line \(line), column \(column)" + (detail.isEmpty ? "" : ": \(detail)")
        case .nestingTooDeep(let limit, let line, let column):
            return "elements nested deeper than \(limit) levels at line \(line), column \(column)"
        case .malformedJSON(let message): return "ill-formed JSON Feed: \(message)"
        case .unsupportedEncoding(let name): return "unsupported character encoding '\(name)'"
        case .entityExpansionTooLarge(let limit): return "its entities would expand to more than \(limit) bytes"
        }
    }

    // MARK: Directories

    /// The files a location stands for: itself, or a directory's visible files at any depth,
    /// sorted by path. Remote URLs pass through.
    private func expand(_ location: FeedLocation) -> Result<[FeedLocation], ImportFailure> {
        guard case .file(let url) = location else { return .success([location]) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return .failure(ImportFailure(source: location.description, reason: "no such file or directory"))
        }
        guard isDirectory.boolValue else { return .success([location]) }
        guard let enumerator = FileManager.default.enumerator(
            at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else {
            return .failure(ImportFailure(source: location.description, reason: "can't list the directory"))
        }
        var files: [URL] = []
        for case let file as URL in enumerator where (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            files.append(file.standardizedFileURL)
        }
        return .success(files.sorted { $0.path < $1.path }.map(FeedLocation.file))
    }
}
