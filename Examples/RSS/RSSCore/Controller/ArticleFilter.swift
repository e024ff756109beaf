import Foundation
import QSData

/// Which articles a list shows. Lists are newest first; articles without a date come last.
public struct ArticleFilter: Sendable, Equatable {
    public var feedID: String?
    public var unreadOnly: Bool
    public var starredOnly: Bool
    public var publishedBefore: Date?
    public var limit: Int?

    public init(feedID: String? = nil, unreadOnly: Bool = false, starredOnly: Bool = false,
                publishedBefore: Date? = nil, limit: Int? = nil) {
        self.feedID = feedID
        self.unreadOnly = unreadOnly
        self.starredOnly = starredOnly
        self.publishedBefore = publishedBefore
        self.limit = limit
    }

    /// The SQL condition and its arguments; nil when every article matches. `read = 0` and
    /// `starred = 1` are spelled as the partial indexes in RSS.sql are, so SQLite uses them.
    var condition: (sql: String, arguments: [SQLValue])? {
        var clauses: [String] = []
        var arguments: [SQLValue] = []
        if let feedID {
            clauses.append("feedID = ?")
            arguments.append(.text(feedID))
        }
        if unreadOnly { clauses.append("read = 0") }
        if starredOnly { clauses.append("starred = 1") }
        if let publishedBefore {
            clauses.append("datePublished < ?")
            arguments.append(.real(publishedBefore.timeIntervalSince1970))
        }
        guard !clauses.isEmpty else { return nil }
        return (clauses.joined(separator: " AND "), arguments)
    }

    static let newestFirst = "datePublished DESC NULLS LAST, uniqueID"
}
