import FeedParser
import Foundation
import QSData

/// What storing one parsed feed did to its articles.
public struct StoredArticles: Sendable, Equatable, Codable {
    /// Articles stored for the first time.
    public var new = 0
    /// Articles already stored whose content changed.
    public var updated = 0
    /// Articles already stored and unchanged: nothing written.
    public var unchanged = 0
    /// Items that repeated the ID of an earlier item in the same document, and were not stored.
    public var duplicates = 0

    public init(new: Int = 0, updated: Int = 0, unchanged: Int = 0, duplicates: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
        self.duplicates = duplicates
    }

    /// Adds another feed's counts.
    public mutating func add(_ other: StoredArticles) {
        new += other.new
        updated += other.updated
        unchanged += other.unchanged
        duplicates += other.duplicates
    }
}

/// Stores parsed feeds for the importer and the refresher: the feed row and its articles in one
/// transaction, so a feed that fails leaves nothing behind.
///
/// Articles are saved as ``ArticleContent``, which has no read or starred column, so the user's
/// state survives, and the store skips unchanged rows. Items of one document that share an ID
/// (a feed repeating a guid) are stored once: **the first in document order is kept** — feeds
/// list their newest items first, so that is the latest copy — and the others are counted as
/// ``StoredArticles/duplicates``.
@MainActor
struct FeedWriter {
    let data: RSSDataController

    /// Saves the feed (`prepare` sets what the caller knows about it, such as its title and
    /// folder), the `addresses` it was read from that it is not yet known by, and its articles.
    /// Returns at once; the write says when it committed. It is a background write: reads issued
    /// meanwhile don't wait for it.
    func save(_ parsed: ParsedFeed, feedID: String, addresses: [URL] = [], prepare: (Feed) -> Void) throws -> QSWrite {
        let store = data.store
        // Feeds are cached permanently and loaded at startup, so the cache has every stored feed.
        let feed = try store.cachedObject(of: Feed.self, id: feedID) ?? Feed(uniqueID: feedID)
        feed.title = parsed.title ?? feed.title
        feed.homePageURL = parsed.homePageURL?.absoluteString ?? feed.homePageURL
        feed.summary = parsed.summary ?? feed.summary
        feed.iconURL = parsed.iconURL?.absoluteString ?? feed.iconURL
        prepare(feed)
        var ids: Set<String> = []
        let articles = parsed.items
            .filter { ids.insert($0.uniqueID).inserted }
            .map { ArticleContent(item: $0, feedID: feedID) }
        let known = newAddresses(addresses, feedID: feedID)
        // In the background: the user's reads (the article list, unread counts, search) go on
        // against what is committed while a large feed is written.
        return try store.performInBackground {
            try store.save(feed)
            try store.save(known)
            try store.save(articles)
        }
    }

    /// Rows for the addresses no feed is known by yet; an address another feed owns stays its own.
    func newAddresses(_ addresses: [URL], feedID: String) -> [FeedAddress] {
        var seen: Set<String> = [feedID]
        return addresses.map(\.absoluteString)
            .filter { seen.insert($0).inserted && data.feed(knownAt: $0) == nil }
            .map { FeedAddress(uniqueID: $0, feedID: feedID) }
    }

    /// Waits for `write` (from ``save(_:feedID:prepare:)``) to commit, counts what it did to the
    /// feed's articles, and adds the new ones to the unread counts.
    func finish(_ write: QSWrite, parsed: ParsedFeed, feedID: String) async throws -> StoredArticles {
        try await write.committed()
        var inserted: Set<String> = []
        var updated: Set<String> = []
        for change in write.changes {
            inserted.formUnion(change.insertedIDs(of: ArticleContent.self))
            updated.formUnion(change.updatedIDs(of: ArticleContent.self))
        }
        let ids = Set(parsed.items.map(\.uniqueID))
        let new = ids.intersection(inserted).count
        let changed = ids.intersection(updated.subtracting(inserted)).count
        data.unreadCounts[feedID, default: 0] += new
        return StoredArticles(new: new, updated: changed, unchanged: max(0, ids.count - new - changed),
                              duplicates: parsed.items.count - ids.count)
    }

    /// What the parser repaired in a document (a feed's or a subscription list's), one entry per
    /// kind of problem, for the summary: a document read from broken XML is used, and the user is
    /// told what was wrong where.
    static func repairs(_ warnings: [FeedParseWarning], source: String) -> [ImportFailure] {
        warnings.map { ImportFailure(source: source, reason: "repaired: \($0)") }
    }

    /// A warning when the document holds item-like elements that did not become articles: a
    /// dialect or structure the parser does not read must not import fewer articles silently.
    static func unreadItemsWarning(_ parsed: ParsedFeed) -> String? {
        guard parsed.unreadItemCount > 0 else { return nil }
        if parsed.items.isEmpty {
            return "no articles read: the document has \(parsed.itemElementCount) item or entry elements in a form the reader does not understand"
        }
        return "\(parsed.unreadItemCount) of \(parsed.itemElementCount) item or entry elements could not be read as articles"
    }
}
