import Foundation

/// The rule for articles that have left their feed: which are deleted.
///
/// When a refresh downloads a feed's document, an article of that feed that the document no
/// longer lists is deleted once it is **read, not starred, and published more than ``days`` days
/// ago**. Everything else stays: articles still in the feed, unread or starred ones, recent ones,
/// and articles without a publication date (their age is unknown). Feeds read from files are not
/// refreshed, so their articles are never pruned.
public struct ArticleRetention: Sendable, Equatable {
    /// How many days after publication a read, unstarred article that left its feed is kept.
    public var days: Int

    /// - Throws: ``RSSError/invalidArgument(_:)`` for a negative number of days.
    public init(days: Int) throws(RSSError) {
        guard days >= 0 else { throw .invalidArgument("the number of days to keep articles must not be negative") }
        self.days = days
    }

    /// Thirty days.
    public static let standard = ArticleRetention(uncheckedDays: 30)

    private init(uncheckedDays days: Int) {
        self.days = days
    }

    /// Articles published before this date may be deleted, counted back from `now`.
    public func cutoff(now: Date) -> Date {
        now.addingTimeInterval(-Double(days) * 86_400)
    }
}
