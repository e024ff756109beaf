import Foundation
import QSData

/// The full article, for reading: everything the feed said plus the user's read and starred
/// state and the ordered authors. A value: fetch it when it is shown.
public struct Article: QSDataObject, Sendable, Equatable {
    public let uniqueID: String
    public var feedID: String
    public var title: String?
    public var url: String?
    public var externalURL: String?
    public var contentHTML: String?
    public var summary: String?
    public var imageURL: String?
    public var datePublished: Date?
    public var dateModified: Date?
    public var read: Bool
    public var starred: Bool
    public var authors: [Author]

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        feedID = try row["feedID"]
        title = try row["title"]
        url = try row["url"]
        externalURL = try row["externalURL"]
        contentHTML = try row["contentHTML"]
        summary = try row["summary"]
        imageURL = try row["imageURL"]
        datePublished = try row["datePublished"]
        dateModified = try row["dateModified"]
        read = try row["read"]
        starred = try row["starred"]
        authors = try row.related("authors")
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["feedID"] = feedID
        row["title"] = title
        row["url"] = url
        row["externalURL"] = externalURL
        row["contentHTML"] = contentHTML
        row["summary"] = summary
        row["imageURL"] = imageURL
        row["datePublished"] = datePublished
        row["dateModified"] = dateModified
        row["read"] = read
        row["starred"] = starred
        row.setRelated("authors", authors)
    }
}
