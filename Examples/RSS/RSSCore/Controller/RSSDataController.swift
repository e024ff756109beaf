import Foundation
import QSData
import QSDataSync

/// The reader's data: feeds, articles and the user's read and starred state, on one store.
///
/// Everything the app does to its data goes through here. Feeds are all in memory (the store
/// fetches them at startup); articles are fetched as lists need them. Unread counts per feed
/// are loaded once and then kept current in memory by every change made through this
/// controller, so showing them never runs SQL.
/// ```swift
/// let data = try await RSSDataController.open(at: databaseURL)
/// let unread = try await data.articles(ArticleFilter(unreadOnly: true))
/// try data.markRead(unread)              // one UPDATE; `unread` objects are patched at once
/// print(data.totalUnreadCount)           // 0, without asking the database
/// ```
@MainActor
public final class RSSDataController {
    /// The store, for what this controller does not cover (raw SQL, statement accounting).
    public let store: QSStore
    /// The database file.
    public let databaseURL: URL
    var unreadCounts: [String: Int] = [:]
    /// Sync, attached whenever the database is logged in to a sync account, so that every
    /// change is stamped and queued as it commits (see `RSSDataController+Sync.swift`).
    var sync: QSSync?

    private init(store: QSStore, databaseURL: URL) {
        self.store = store
        self.databaseURL = databaseURL
    }

    /// Opens (creating when new) the database at `url`, and its folder when missing.
    public static func open(at url: URL) async throws -> RSSDataController {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw RSSError.cannotCreateFolder(path: folder.path, reason: error.localizedDescription)
        }
        let store: QSStore
        do {
            store = try await QSStore.open(
                at: url,
                model: QSDataModel(contentsOf: RSSResources.modelURL),
                schema: QSSchema(creationFile: RSSResources.schemaURL, migrationsFolder: RSSResources.migrationsURL),
                types: RSSResources.types)
        } catch QSDataError.foreignDatabase(let path), QSDataError.notADatabase(let path) {
            throw RSSError.notAnRSSDatabase(path: path)
        }
        // A reader's working set is the unread index and the newest articles; SQLite's default
        // 2 MB page cache makes large imports thrash the primary-key index.
        try await store.execute("PRAGMA cache_size = -32768")
        let controller = RSSDataController(store: store, databaseURL: url)
        if let account = try RSSSyncAccount.load(forDatabase: url) { try await controller.attachSync(account) }
        try await controller.reloadUnreadCounts()
        return controller
    }

    /// Waits for pending writes, then closes the store.
    public func close() async throws {
        try await store.close()
    }

    // MARK: Feeds

    /// Every feed, by folder and then by name. Served from memory.
    public var feeds: [Feed] {
        let all = (try? store.cachedObjects(of: Feed.self)) ?? []
        return all.sorted {
            ($0.folder ?? "", $0.displayName.lowercased(), $0.uniqueID) < ($1.folder ?? "", $1.displayName.lowercased(), $1.uniqueID)
        }
    }

    /// The feed with this uniqueID (its URL). Served from memory.
    public func feed(id: String) -> Feed? {
        (try? store.cachedObject(of: Feed.self, id: id)) ?? nil
    }

    /// The feed read at `address`: the one subscribed at it, or one that a permanent redirect
    /// moved to or through it. Served from memory.
    public func feed(knownAt address: String) -> Feed? {
        if let feed = feed(id: address) { return feed }
        guard let known = (try? store.cachedObject(of: FeedAddress.self, id: address)) ?? nil else { return nil }
        return feed(id: known.feedID)
    }

    /// Finds a feed by URL, exact title (any case), or a unique prefix of its URL.
    public func findFeed(_ reference: String) throws -> Feed {
        let all = feeds
        if let exact = all.first(where: { $0.uniqueID == reference }) { return exact }
        let byTitle = all.filter { $0.title?.lowercased() == reference.lowercased() }
        if byTitle.count == 1, let feed = byTitle.first { return feed }
        let byURL = all.filter { $0.uniqueID.contains(reference) }
        if byURL.count == 1, let feed = byURL.first { return feed }
        if byTitle.count + byURL.count > 1 {
            throw RSSError.invalidArgument("'\(reference)' matches more than one feed; give its full URL")
        }
        throw RSSError.noSuchFeed(reference)
    }

    // MARK: Unread counts

    /// The number of unread articles in a feed. Runs no SQL.
    public func unreadCount(ofFeed feedID: String) -> Int {
        unreadCounts[feedID] ?? 0
    }

    /// The number of unread articles in all feeds. Runs no SQL.
    public var totalUnreadCount: Int {
        unreadCounts.values.reduce(0, +)
    }

    /// Counts unread articles per feed again, in one query on the partial unread index.
    public func reloadUnreadCounts() async throws {
        let rows = try await store.fetchRows(Self.unreadCountsSQL)
        var counts: [String: Int] = [:]
        for row in rows where row.count == 2 {
            if case .text(let feedID) = row[0], case .integer(let count) = row[1] {
                counts[feedID] = Int(count)
            }
        }
        unreadCounts = counts
    }

    /// Public so that tests can check its query plan.
    public static let unreadCountsSQL = "SELECT feedID, count(*) FROM articles WHERE read = 0 GROUP BY feedID"
}
