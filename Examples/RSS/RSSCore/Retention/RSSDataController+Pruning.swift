import Foundation
import QSData

extension RSSDataController {
    /// Records which of the feed's articles its latest document lists (`current`, their IDs):
    /// the others have left the feed, at `now` unless they left earlier; those listed again are
    /// back in it. Returns how many left with this document.
    @discardableResult
    public func recordArticlesLeft(feed feedID: String, listing current: Set<String>, now: Date) async throws -> Int {
        // Two reads of the feed's own rows, compared here rather than in SQL, so that no statement
        // carries a list as long as the feed.
        let listed = try await store.fetchIDs(Article.self, where: "feedID = ? AND leftFeedAt IS NULL", arguments: [.text(feedID)])
        let departed = try await store.fetchIDs(Article.self, where: "feedID = ? AND leftFeedAt IS NOT NULL", arguments: [.text(feedID)])
        let leaving = listed.filter { !current.contains($0) }
        let returning = departed.filter { current.contains($0) }
        guard !leaving.isEmpty || !returning.isEmpty else { return 0 }
        try await store.performBatch {
            if !leaving.isEmpty { try store.update(Article.self, ids: leaving, set: ["leftFeedAt": now]) }
            if !returning.isEmpty { try store.update(Article.self, ids: returning, set: ["leftFeedAt": SQLValue.null]) }
        }.committed()
        return leaving.count
    }

    /// The IDs of the articles `retention` lets go: they left their feed, are not starred, were
    /// published before its cutoff and (unless it includes unread ones) are read. Only `feedID`'s
    /// when given.
    public func articlesToPrune(_ retention: ArticleRetention, feedID: String? = nil, now: Date) async throws -> [String] {
        var condition = "leftFeedAt IS NOT NULL AND starred = 0 AND datePublished < ?"
        var arguments: [SQLValue] = [.real(retention.cutoff(now: now).timeIntervalSince1970)]
        if !retention.includesUnread { condition += " AND read = 1" }
        if let feedID {
            condition += " AND feedID = ?"
            arguments.append(.text(feedID))
        }
        return try await store.fetchIDs(Article.self, where: condition, arguments: arguments)
    }

    /// Deletes the articles `retention` lets go (see ``articlesToPrune(_:feedID:now:)``) and
    /// returns how many; the unread counts follow when unread ones went.
    @discardableResult
    public func pruneArticles(_ retention: ArticleRetention, feedID: String? = nil, now: Date) async throws -> Int {
        let doomed = try await articlesToPrune(retention, feedID: feedID, now: now)
        guard !doomed.isEmpty else { return 0 }
        try await store.delete(Article.self, ids: doomed).committed()
        if retention.includesUnread { try await reloadUnreadCounts() }
        return doomed.count
    }
}
