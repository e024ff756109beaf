import FeedParser
import Foundation
import QSData

/// Imports feeds into the reader: files, directories, http(s) URLs and OPML lists.
///
/// Documents are read and parsed off the main actor, several at once; each parsed feed is then
/// stored with its own saves (the feed, then its articles in one transaction). Re-importing
/// writes only what changed: the store skips unchanged rows, and the importer saves
/// ``ArticleContent``, which has no read or starred column, so the user's state survives.
/// A source that can't be read or parsed is reported and skipped; the others import. A feed
/// stored with fewer articles than its document holds is reported as a warning, and items that
/// repeat an ID are counted as duplicates (``FeedWriter`` says which copy is kept).
/// ```swift
/// let importer = FeedImporter(data: controller)
/// importer.onEvent = { print($0) }
/// let summary = await importer.importFeeds(from: [try FeedLocation(argument: "feeds/")])
/// ```
@MainActor
public final class FeedImporter {
    private let data: RSSDataController
    private let loader: FeedLoader
    private let maximumConcurrentLoads: Int
    /// Called as sources are discovered, stored or skipped.
    public var onEvent: (@MainActor (ImportEvent) -> Void)?
    /// When `false`, http(s) feeds (named directly or listed in a local OPML file) are subscribed
    /// without being downloaded: `rss refresh` does the network work later.
    public var fetchesRemoteFeeds = true

    public init(data: RSSDataController, loader: FeedLoader = FeedLoader(), maximumConcurrentLoads: Int = 4) {
        self.data = data
        self.loader = loader
        self.maximumConcurrentLoads = max(1, maximumConcurrentLoads)
    }

    /// One source to read, with what an OPML list said about it.
    struct Job: Sendable {
        let location: FeedLocation
        var title: String?
        var folder: String?
    }

    /// A source after reading and parsing.
    enum Loaded: Sendable {
        case feed(Job, ParsedFeed)
        case subscriptionList(Job, [OPMLFeedEntry], unusable: [String])
        case failed(Job, String)
    }

    /// Imports everything `locations` name and returns what happened.
    public func importFeeds(from locations: [FeedLocation]) async -> ImportSummary {
        let started = ContinuousClock.now
        var summary = ImportSummary()
        // 1. Directories become their files; a path that isn't there is a failure at once.
        var queue: [Job] = []
        for location in locations {
            switch expand(location) {
            case .success(let files): queue += files.map { Job(location: $0) }
            case .failure(let failure): record(failure, in: &summary)
            }
        }
        var seen = Set(queue.map(\.location.url.absoluteString))
        var discovered = queue.count + summary.failures.count
        onEvent?(.discovered(total: discovered))

        // Feeds whose write is enqueued but not yet known to have committed: a few stay in
        // flight so that storing one feed overlaps with handing over the next.
        var inFlight: [StoringFeed] = []

        // 2. Read and parse off the main actor, a few at a time; store each feed as it arrives.
        let loader = self.loader
        await withTaskGroup(of: Loaded.self) { group in
            var running = 0
            var next = 0
            while true {
                while running < maximumConcurrentLoads, next < queue.count {
                    let job = queue[next]
                    next += 1
                    if !fetchesRemoteFeeds, case .remote = job.location {
                        subscribe(job, in: &summary)
                        continue
                    }
                    running += 1
                    group.addTask { await Self.load(job, with: loader) }
                }
                guard let loaded = await group.next() else { break }
                running -= 1
                switch loaded {
                case .failed(let job, let reason):
                    record(ImportFailure(source: job.location.description, reason: reason), in: &summary)
                case .subscriptionList(let job, let entries, let unusable):
                    // 3. A subscription list adds its feeds to the queue, each URL once; an
                    // address that is not a URL is reported, never silently dropped.
                    for address in unusable {
                        record(ImportFailure(source: address, reason: "not a URL in \(job.location.description) (write file:// or http(s)://)"), in: &summary)
                        discovered += 1
                    }
                    for entry in entries {
                        guard let location = FeedLocation(url: entry.feedURL) else {
                            record(ImportFailure(source: entry.feedURL.absoluteString, reason: "only http, https and file URLs can be imported"), in: &summary)
                            continue
                        }
                        guard seen.insert(location.url.absoluteString).inserted else { continue }
                        let folder = entry.folderPath.isEmpty ? nil : entry.folderPath.joined(separator: "/")
                        queue.append(Job(location: location, title: entry.title, folder: folder))
                        discovered += 1
                    }
                    onEvent?(.discovered(total: discovered))
                case .feed(let job, let parsed):
                    do {
                        let write = try FeedWriter(data: data).save(parsed, feedID: job.location.url.absoluteString) { feed in
                            feed.title = parsed.title ?? job.title ?? feed.title
                            feed.folder = job.folder ?? feed.folder
                        }
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
        let feedID = job.location.url.absoluteString
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
    }

    /// Subscribes to a remote feed without reading it: the feed row only, with what an OPML list
    /// said about it. A feed already subscribed keeps its articles and gains the list's folder.
    private func subscribe(_ job: Job, in summary: inout ImportSummary) {
        let feedID = job.location.url.absoluteString
        do {
            let feed = try data.store.cachedObject(of: Feed.self, id: feedID) ?? Feed(uniqueID: feedID)
            feed.title = feed.title ?? job.title
            feed.folder = job.folder ?? feed.folder
            try data.store.save(feed)
        } catch {
            record(ImportFailure(source: job.location.description, reason: "not stored: \(error)"), in: &summary)
            return
        }
        summary.subscribedFeeds += 1
        onEvent?(.subscribed(source: job.location.description))
    }

    private func record(_ failure: ImportFailure, in summary: inout ImportSummary) {
        summary.failures.append(failure)
        onEvent?(.failed(failure))
    }

    // MARK: Reading, off the main actor

    /// Reads and parses one source. Runs on the global executor, so several run at once.
    nonisolated static func load(_ job: Job, with loader: FeedLoader) async -> Loaded {
        let bytes: Data
        do {
            bytes = try await loader.data(at: job.location)
        } catch {
            return .failed(job, error.description)
        }
        do {
            if FeedParser.detectFormat(data: bytes) == .opml {
                let list = try OPMLParser.parse(data: bytes)
                return .subscriptionList(job, list.feeds, unusable: list.unusableFeedAddresses)
            }
            return .feed(job, try FeedParser.parse(data: bytes, url: job.location.url))
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
