import FeedParser
import Foundation
import QSData

/// Imports feeds into the reader: files, directories, http(s) URLs and OPML lists.
///
/// Documents are read and parsed off the main actor, several at once; each parsed feed is then
/// stored with its own saves (the feed, then its articles in one transaction). Re-importing
/// writes only what changed: the store skips unchanged rows, and the importer saves
/// ``ArticleContent``, which has no read or starred column, so the user's state survives.
/// A source that can't be read or parsed is reported and skipped; the others import.
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

        // 2. Collect inserted and updated articles from the store's change notifications.
        var written = WrittenArticles()
        let observation = data.store.observeChanges { change in
            written.inserted.formUnion(change.insertedIDs(of: ArticleContent.self))
            written.updated.formUnion(change.updatedIDs(of: ArticleContent.self))
        }
        defer { observation.cancel() }
        // Feeds whose write is enqueued but not yet known to have committed: a few stay in
        // flight so that storing one feed overlaps with handing over the next.
        var inFlight: [StoringFeed] = []

        // 3. Read and parse off the main actor, a few at a time; store each feed as it arrives.
        let loader = self.loader
        await withTaskGroup(of: Loaded.self) { group in
            var running = 0
            var next = 0
            while true {
                while running < maximumConcurrentLoads, next < queue.count {
                    let job = queue[next]
                    next += 1
                    running += 1
                    group.addTask { await Self.load(job, with: loader) }
                }
                guard let loaded = await group.next() else { break }
                running -= 1
                switch loaded {
                case .failed(let job, let reason):
                    record(ImportFailure(source: job.location.description, reason: reason), in: &summary)
                case .subscriptionList(let job, let entries, let unusable):
                    // 4. A subscription list adds its feeds to the queue, each URL once; an
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
                        inFlight.append(StoringFeed(job: job, parsed: parsed, write: try store(parsed, from: job)))
                    } catch {
                        record(ImportFailure(source: job.location.description, reason: "not stored: \(error)"), in: &summary)
                    }
                    if inFlight.count >= Self.feedsInFlight {
                        await finish(inFlight.removeFirst(), written: written, in: &summary)
                    }
                }
            }
        }
        for storing in inFlight {
            await finish(storing, written: written, in: &summary)
        }
        summary.seconds = Self.seconds(since: started)
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

    /// The article IDs this import inserted and updated, from the change notifications.
    private struct WrittenArticles {
        var inserted: Set<String> = []
        var updated: Set<String> = []
    }

    /// Waits for a feed's write to commit, then counts what it changed and reports it.
    private func finish(_ storing: StoringFeed, written: @autoclosure () -> WrittenArticles, in summary: inout ImportSummary) async {
        let job = storing.job
        do {
            try await storing.write.committed()
        } catch {
            record(ImportFailure(source: job.location.description, reason: "not stored: \(error)"), in: &summary)
            return
        }
        let articles = written()
        let ids = Set(storing.parsed.items.map(\.uniqueID))
        let new = ids.filter { articles.inserted.contains($0) }.count
        let updated = ids.filter { articles.updated.contains($0) && !articles.inserted.contains($0) }.count
        let unchanged = max(0, ids.count - new - updated)
        summary.feeds += 1
        summary.newArticles += new
        summary.updatedArticles += updated
        summary.unchangedArticles += unchanged
        data.unreadCounts[job.location.url.absoluteString, default: 0] += new
        onEvent?(.imported(source: job.location.description, title: storing.parsed.title ?? job.title ?? job.location.description,
                           new: new, updated: updated, unchanged: unchanged))
    }

    private func record(_ failure: ImportFailure, in summary: inout ImportSummary) {
        summary.failures.append(failure)
        onEvent?(.failed(failure))
    }

    // MARK: Storing

    /// Saves the feed and its articles in one transaction, so a feed that fails leaves nothing
    /// behind. Returns at once; the write says when it committed.
    private func store(_ parsed: ParsedFeed, from job: Job) throws -> QSWrite {
        let store = data.store
        let feedID = job.location.url.absoluteString
        // Feeds are cached permanently and loaded at startup, so the cache has every stored feed.
        let existing = try store.cachedObject(of: Feed.self, id: feedID)
        let feed = existing ?? Feed(uniqueID: feedID)
        feed.title = parsed.title ?? job.title ?? feed.title
        feed.homePageURL = parsed.homePageURL?.absoluteString ?? feed.homePageURL
        feed.summary = parsed.summary ?? feed.summary
        feed.iconURL = parsed.iconURL?.absoluteString ?? feed.iconURL
        feed.folder = job.folder ?? feed.folder

        var ids: Set<String> = []
        let articles = parsed.items
            .filter { ids.insert($0.uniqueID).inserted }
            .map { ArticleContent(item: $0, feedID: feedID) }
        return try store.performBatch {
            try store.save(feed)
            try store.save(articles)
        }
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

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
