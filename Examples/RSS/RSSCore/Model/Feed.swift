import Foundation
import QSData

/// A subscription. Its uniqueID is the URL it was subscribed at, so subscribing twice is
/// impossible; it never changes, because it is part of every article's ID. When the feed moves
/// (a permanent redirect), ``address`` says where it is read from now.
///
/// Feeds are few and small: the store fetches them all when it opens and keeps them for its
/// whole life, so looking one up never runs SQL.
public final class Feed: QSUpdatableObject {
    public let uniqueID: String
    public var title: String?
    public var homePageURL: String?
    public var summary: String?
    public var iconURL: String?
    /// The OPML folder the feed was listed in, `/`-separated; nil when imported directly.
    public var folder: String?
    /// Where the feed is fetched from when it is not ``uniqueID`` (a permanent redirect moved it).
    public var address: String?
    /// The `ETag` of the last download, sent back as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` date of the last download, as the server wrote it; sent back as
    /// `If-Modified-Since`.
    public var lastModified: String?

    public init(uniqueID: String, title: String? = nil, homePageURL: String? = nil,
                summary: String? = nil, iconURL: String? = nil, folder: String? = nil) {
        self.uniqueID = uniqueID
        self.title = title
        self.homePageURL = homePageURL
        self.summary = summary
        self.iconURL = iconURL
        self.folder = folder
    }

    /// The URL the feed is read from now: ``address``, else ``uniqueID``.
    public var currentAddress: String {
        address ?? uniqueID
    }

    /// The title, or the URL when the feed has none.
    public var displayName: String {
        if let title, !title.isEmpty { return title }
        return uniqueID
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        homePageURL = try row["homePageURL"]
        summary = try row["summary"]
        iconURL = try row["iconURL"]
        folder = try row["folder"]
        address = try row["address"]
        etag = try row["etag"]
        lastModified = try row["lastModified"]
    }

    public func update(from row: QSRow) throws {
        title = try row["title"]
        homePageURL = try row["homePageURL"]
        summary = try row["summary"]
        iconURL = try row["iconURL"]
        folder = try row["folder"]
        address = try row["address"]
        etag = try row["etag"]
        lastModified = try row["lastModified"]
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["homePageURL"] = homePageURL
        row["summary"] = summary
        row["iconURL"] = iconURL
        row["folder"] = folder
        row["address"] = address
        row["etag"] = etag
        row["lastModified"] = lastModified
    }
}
