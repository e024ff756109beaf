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
    /// Feeds not asked for because their host answered 429 or 503 with `Retry-After`, in this
    /// refresh or an earlier one, and asked to wait until a time still to come.
    public var postponed: [PostponedFeed] = []
    /// Articles deleted because they left their feed and the retention rule let them go.
    public var prunedArticles = 0
    /// Feeds that could not be refreshed, with the reason; their stored articles are untouched.
    public var failures: [ImportFailure] = []
    /// Feeds stored with fewer articles than their document holds, and why.
    public var warnings: [ImportFailure] = []
    /// What the reader repaired in the documents it stored anyway (see
    /// ``ImportSummary/repairs``).
    public var repairs: [ImportFailure] = []
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

/// A feed left alone because its host asked to wait.
public struct PostponedFeed: Sendable, Equatable, Codable {
    /// The address the feed is read from.
    public var feed: String
    public var host: String
    /// When the host may be asked again.
    public var until: Date
    /// What the host answered.
    public var reason: String

    public init(feed: String, host: String, until: Date, reason: String) {
        self.feed = feed
        self.host = host
        self.until = until
        self.reason = reason
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
    /// A feed was not asked for: its host asked to wait.
    case postponed(PostponedFeed)
}
