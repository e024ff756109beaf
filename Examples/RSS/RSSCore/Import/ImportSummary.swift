import Foundation

/// What an import did, for the closing line and for `--json`.
public struct ImportSummary: Sendable, Equatable, Codable {
    /// Feeds read and stored.
    public var feeds = 0
    /// Feeds subscribed without being read (`fetchesRemoteFeeds` off) that were not subscribed before.
    public var subscribedFeeds = 0
    /// Feeds named to be subscribed without being read that were subscribed already (at that
    /// address or one they moved from or to): nothing added.
    public var alreadySubscribedFeeds = 0
    /// Articles stored for the first time.
    public var newArticles = 0
    /// Articles already stored whose content changed.
    public var updatedArticles = 0
    /// Articles already stored and unchanged: nothing written.
    public var unchangedArticles = 0
    /// Items that repeated the ID of an earlier item in the same feed; one of each is stored
    /// (see ``FeedImporter``).
    public var duplicateArticles = 0
    /// Sources that could not be imported, with the reason; nothing of them was stored.
    public var failures: [ImportFailure] = []
    /// Feeds that were stored but had items the reader could not read: fewer articles than the
    /// document holds, said out loud.
    public var warnings: [ImportFailure] = []
    /// What the reader repaired in the documents of feeds it stored anyway — XML that is not
    /// well-formed, bytes that are not UTF-8, a download cut off at the end — one entry per kind
    /// of problem, naming its line. Each such feed was stored with every item that could be read.
    public var repairs: [ImportFailure] = []
    /// Wall-clock duration.
    public var seconds: Double = 0

    public init() {}

    /// Feeds skipped because they failed.
    public var skippedFeeds: Int { failures.count }

    /// Adds one stored feed's article counts.
    mutating func add(_ articles: StoredArticles) {
        feeds += 1
        newArticles += articles.new
        updatedArticles += articles.updated
        unchangedArticles += articles.unchanged
        duplicateArticles += articles.duplicates
    }

    /// Articles read per second, stored or not.
    public var articlesPerSecond: Double {
        seconds > 0 ? Double(newArticles + updatedArticles + unchangedArticles) / seconds : 0
    }
}

/// One source that was skipped, and why; or, among an import's warnings, a feed that was stored
/// with fewer articles than it holds, and why.
public struct ImportFailure: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public var source: String
    public var reason: String

    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { "\(source): \(reason)" }
}

/// Progress reported while importing, on the main actor.
public enum ImportEvent: Sendable, Equatable {
    /// The number of sources known so far grew (directories listed, OPML lists read).
    case discovered(total: Int)
    /// A feed was subscribed without being read.
    case subscribed(source: String)
    /// A feed was stored.
    case imported(source: String, title: String, articles: StoredArticles)
    /// A feed was stored, but not all of its items could be read.
    case warned(ImportFailure)
    /// A source was skipped.
    case failed(ImportFailure)
}
