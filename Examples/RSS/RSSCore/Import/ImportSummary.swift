import Foundation

/// What an import did, for the closing line and for `--json`.
public struct ImportSummary: Sendable, Equatable, Codable {
    /// Feeds read and stored.
    public var feeds = 0
    /// Articles stored for the first time.
    public var newArticles = 0
    /// Articles already stored whose content changed.
    public var updatedArticles = 0
    /// Articles already stored and unchanged: nothing written.
    public var unchangedArticles = 0
    /// Sources that could not be imported, with the reason; nothing of them was stored.
    public var failures: [ImportFailure] = []
    /// Wall-clock duration.
    public var seconds: Double = 0

    public init() {}

    /// Feeds skipped because they failed.
    public var skippedFeeds: Int { failures.count }

    /// Articles read per second, stored or not.
    public var articlesPerSecond: Double {
        seconds > 0 ? Double(newArticles + updatedArticles + unchangedArticles) / seconds : 0
    }
}

/// One source that was skipped, and why.
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
    /// A feed was stored.
    case imported(source: String, title: String, new: Int, updated: Int, unchanged: Int)
    /// A source was skipped.
    case failed(ImportFailure)
}
