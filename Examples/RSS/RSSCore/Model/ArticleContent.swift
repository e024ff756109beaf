import Foundation
import FeedParser
import QSData

/// What a feed says about an article: the columns of `articles` the importer owns.
///
/// The importer saves this type, never ``Article``: it has no `read` or `starred` column, so a
/// new row gets the schema's defaults and re-importing an article never touches the user's
/// state. Saving an unchanged article writes nothing (the store compares before updating).
public struct ArticleContent: QSDataObject, Sendable, Equatable {
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
    public var authors: [Author]

    /// The article as `item` describes it, in the feed `feedID`.
    public init(item: ParsedItem, feedID: String) {
        uniqueID = item.uniqueID
        self.feedID = feedID
        title = item.title
        url = item.url?.absoluteString
        externalURL = item.externalURL?.absoluteString
        contentHTML = item.contentHTML ?? item.contentText
        summary = item.summary
        imageURL = item.imageURL?.absoluteString
        datePublished = item.datePublished
        dateModified = item.dateModified
        authors = item.authors.compactMap(Author.init(parsed:))
    }

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
        row.setRelated("authors", authors)
    }
}
