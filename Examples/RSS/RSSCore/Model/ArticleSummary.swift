import Foundation
import QSData

/// The light article type for lists: six columns of the `articles` table, no content.
///
/// Uniqued: every list shows the same instance of an article, and a bulk update (mark read,
/// star) patches it in place, so every holder sees the change without fetching again.
public final class ArticleSummary: QSUpdatableObject {
    public let uniqueID: String
    public let feedID: String
    public var title: String?
    public var datePublished: Date?
    public var read: Bool
    public var starred: Bool

    public init(uniqueID: String, feedID: String, title: String?, datePublished: Date?, read: Bool = false, starred: Bool = false) {
        self.uniqueID = uniqueID
        self.feedID = feedID
        self.title = title
        self.datePublished = datePublished
        self.read = read
        self.starred = starred
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        feedID = try row["feedID"]
        title = try row["title"]
        datePublished = try row["datePublished"]
        read = try row["read"]
        starred = try row["starred"]
    }

    public func update(from row: QSRow) throws {
        title = try row["title"]
        datePublished = try row["datePublished"]
        read = try row["read"]
        starred = try row["starred"]
    }

    /// Marking a feed's articles read sets `read` alone on each instance held.
    public func update(column: String, from row: QSRow) throws -> Bool {
        switch column {
        case "title": title = try row["title"]
        case "datePublished": datePublished = try row["datePublished"]
        case "read": read = try row["read"]
        case "starred": starred = try row["starred"]
        default: return false
        }
        return true
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["feedID"] = feedID
        row["title"] = title
        row["datePublished"] = datePublished
        row["read"] = read
        row["starred"] = starred
    }
}
