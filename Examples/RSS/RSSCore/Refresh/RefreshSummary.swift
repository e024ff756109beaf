import Foundation

/// What `rss refresh` did, for the closing lines and for `--json`.
public struct RefreshSummary: Sendable, Equatable, Codable {
    /// Feeds asked for.
    public var feeds = 0
    /// Feeds downloaded in full (HTTP 200), parsed and stored.
    public var fetched = 0
    /// Feeds the server said had not changed (HTTP 304): not parsed, nothing written.
    public var notModified = 0
    /// What storing the fetched feeds did to their articles.
    public var articles = StoredArticles()
    /// Feeds a permanent redirect moved to a new address.
    public var moved: [FeedMove] = []
    /// Feeds that could not be refreshed, with the reason; their stored articles are untouched.
    public var failures: [ImportFailure] = []
    /// Feeds stored with fewer articles than their document holds, and why.
    public var warnings: [ImportFailure] = []
    /// HTTP requests made, redirects included.
    public var requests = 0
    /// Bytes of response bodies received.
    public var bytes = 0
    /// Wall-clock duration.
    public var seconds: Double = 0

    public init() {}

    /// Articles read per second from the fetched feeds, stored or not.
    public var articlesPerSecond: Double {
        seconds > 0 ? Double(articles.new + articles.updated + articles.unchanged) / seconds : 0
    }
}

/// A subscription moved by a permanent redirect: it is read from `to` from now on.
public struct FeedMove: Sendable, Equatable, Codable {
    public var feed: String
    public var from: String
    public var to: String

    public init(feed: String, from: String, to: String) {
        self.feed = feed
        self.from = from
        self.to = to
    }
}

/// Progress reported while refreshing, on the main actor.
public enum RefreshEvent: Sendable, Equatable {
    /// The number of feeds to refresh.
    case started(total: Int)
    /// A feed had not changed.
    case notModified(feed: String)
    /// A feed was downloaded and stored.
    case fetched(feed: String, title: String, articles: StoredArticles)
    /// A feed's address changed for good.
    case moved(FeedMove)
    /// A feed was stored, but not all of its items could be read.
    case warned(ImportFailure)
    /// A feed could not be refreshed.
    case failed(ImportFailure)
}
