import Foundation
import QSData

/// A subscription. Its uniqueID is the URL it is read from, so subscribing twice is impossible.
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

    public init(uniqueID: String, title: String? = nil, homePageURL: String? = nil,
                summary: String? = nil, iconURL: String? = nil, folder: String? = nil) {
        self.uniqueID = uniqueID
        self.title = title
        self.homePageURL = homePageURL
        self.summary = summary
        self.iconURL = iconURL
        self.folder = folder
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
    }

    public func update(from row: QSRow) throws {
        title = try row["title"]
        homePageURL = try row["homePageURL"]
        summary = try row["summary"]
        iconURL = try row["iconURL"]
        folder = try row["folder"]
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["homePageURL"] = homePageURL
        row["summary"] = summary
        row["iconURL"] = iconURL
        row["folder"] = folder
    }
}
