import Foundation

/// The rule for articles that have left their feed: which are deleted.
///
/// A refresh that downloads a feed's document records, on each article the document no longer
/// lists, when it left (an article listed again is back in its feed). An article that left its
/// feed is deleted once it is **read, not starred, and published more than ``days`` days ago**.
/// Everything else stays: articles still in the feed, unread or starred ones, recent ones, and
/// articles without a publication date (their age is unknown). `rss prune` may take unread
/// articles too (``includesUnread``); starred ones never go. Feeds read from files are not
/// refreshed, so their articles never leave them and are never pruned.
/// ```swift
/// var rule = try ArticleRetention(days: 90)
/// rule.includesUnread = true
/// let deleted = try await data.pruneArticles(rule, now: Date())
/// ```
public struct ArticleRetention: Sendable, Equatable {
    /// How many days after publication an article that left its feed is kept.
    public var days: Int
    /// Whether unread articles that left their feed are deleted too (never by a refresh).
    public var includesUnread = false

    /// - Throws: ``RSSError/invalidArgument(_:)`` for a negative number of days.
    public init(days: Int) throws(RSSError) {
        guard days >= 0 else { throw .invalidArgument("the number of days to keep articles must not be negative") }
        self.days = days
    }

    /// Thirty days, read articles only.
    public static let standard = ArticleRetention(uncheckedDays: 30)

    private init(uncheckedDays days: Int) {
        self.days = days
    }

    /// Articles published before this date may be deleted, counted back from `now`.
    public func cutoff(now: Date) -> Date {
        now.addingTimeInterval(-Double(days) * 86_400)
    }
}
