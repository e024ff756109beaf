import Foundation
import QSData

/// The user's changes: read, starred, deleting. Each is one bulk statement (plus one per
/// relationship for deletes) however many articles it touches, and the list objects in
/// memory and the unread counts reflect it at once.
extension RSSDataController {
    // MARK: Read state

    /// Marks articles read (or unread): one UPDATE. The objects, and every other holder of
    /// them, see the change immediately; so do the unread counts. Returns how many changed.
    @discardableResult
    public func markRead(_ articles: [ArticleSummary], read: Bool = true) throws -> Int {
        var seen: Set<String> = []
        let changing = articles.filter { $0.read != read && seen.insert($0.uniqueID).inserted }
        guard !changing.isEmpty else { return 0 }
        try store.update(ArticleSummary.self, ids: changing.map(\.uniqueID), set: ["read": read])
        for article in changing {
            unreadCounts[article.feedID, default: 0] += read ? -1 : 1
        }
        return changing.count
    }

    /// Marks the articles with these IDs read or unread; throws for an unknown ID.
    @discardableResult
    public func markRead(ids: [String], read: Bool = true) async throws -> Int {
        try markRead(try await articleSummaries(ids: ids), read: read)
    }

    /// Marks every article the filter selects read (or unread) in one UPDATE, then counts
    /// unread articles again. Returns how many changed.
    @discardableResult
    public func markAllRead(_ filter: ArticleFilter, read: Bool = true) async throws -> Int {
        var filter = filter
        filter.unreadOnly = false
        var clauses = [read ? "read = 0" : "read = 1"]
        var arguments: [SQLValue] = []
        if let condition = filter.condition {
            clauses.append(condition.sql)
            arguments = condition.arguments
        }
        let condition = clauses.joined(separator: " AND ")
        let write = try store.update(ArticleSummary.self, where: condition, arguments: arguments, set: ["read": read])
        try await write.committed()
        let count = write.changes.reduce(0) { $0 + $1.updatedIDs(of: ArticleSummary.self).count }
        if count > 0 { try await reloadUnreadCounts() }
        return count
    }

    // MARK: Starred

    /// Stars or unstars articles: one UPDATE. Returns how many changed.
    @discardableResult
    public func setStarred(_ articles: [ArticleSummary], starred: Bool) throws -> Int {
        var seen: Set<String> = []
        let changing = articles.filter { $0.starred != starred && seen.insert($0.uniqueID).inserted }
        guard !changing.isEmpty else { return 0 }
        try store.update(ArticleSummary.self, ids: changing.map(\.uniqueID), set: ["starred": starred])
        return changing.count
    }

    /// Stars or unstars the articles with these IDs; throws for an unknown ID.
    @discardableResult
    public func setStarred(ids: [String], starred: Bool) async throws -> Int {
        try setStarred(try await articleSummaries(ids: ids), starred: starred)
    }

    // MARK: Deleting

    /// Deletes articles with their author lookup rows: one statement on `articles` and one on
    /// `authorsArticlesLookup`, whatever the number. Authors stay (see ``deleteOrphanedAuthors()``).
    public func delete(_ articles: [ArticleSummary]) throws {
        var seen: Set<String> = []
        let doomed = articles.filter { seen.insert($0.uniqueID).inserted }
        guard !doomed.isEmpty else { return }
        try store.delete(Article.self, ids: doomed.map(\.uniqueID))
        for article in doomed where !article.read {
            unreadCounts[article.feedID, default: 0] -= 1
        }
    }

    /// Deletes read, unstarred articles published more than `days` days before `now`,
    /// optionally in one feed only. Returns how many were deleted.
    @discardableResult
    public func deleteReadArticles(olderThanDays days: Int, feedID: String? = nil, now: Date = Date()) async throws -> Int {
        guard days >= 0 else { throw RSSError.invalidArgument("the number of days must not be negative") }
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        var condition = "read = 1 AND starred = 0 AND datePublished < ?"
        var arguments: [SQLValue] = [.real(cutoff.timeIntervalSince1970)]
        if let feedID {
            condition += " AND feedID = ?"
            arguments.append(.text(feedID))
        }
        let write = try store.delete(Article.self, where: condition, arguments: arguments)
        try await write.committed()
        return write.changes.reduce(0) { $0 + $1.deletedIDs(of: Article.self).count }
    }

    /// Unsubscribes: deletes the feed, all its articles and the addresses it was known by, in
    /// one transaction. Returns the number of articles.
    @discardableResult
    public func deleteFeed(_ feed: Feed) async throws -> Int {
        let count = try await store.count(Article.self, where: "feedID = ?", arguments: [.text(feed.uniqueID)])
        let write = try store.performBatch {
            try store.delete(Article.self, where: "feedID = ?", arguments: [.text(feed.uniqueID)])
            try store.delete(FeedAddress.self, where: "feedID = ?", arguments: [.text(feed.uniqueID)])
            try store.delete(Feed.self, ids: [feed.uniqueID])
        }
        try await write.committed()
        unreadCounts[feed.uniqueID] = nil
        return count
    }

    /// Deletes authors no article refers to any more. Returns how many.
    @discardableResult
    public func deleteOrphanedAuthors() async throws -> Int {
        let orphans = try await store.orphanIDs(of: Author.self)
        guard !orphans.isEmpty else { return 0 }
        try store.delete(Author.self, ids: orphans)
        try await store.flush()
        return orphans.count
    }
}
