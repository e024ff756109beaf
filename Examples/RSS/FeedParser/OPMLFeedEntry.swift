import Foundation

/// A feed of an OPML document together with the folders that contain it.
public struct OPMLFeedEntry: Sendable, Hashable {
    /// The display name of the feed.
    public var title: String?
    /// The feed address.
    public var feedURL: URL
    /// The site address.
    public var homePageURL: URL?
    /// Titles of the enclosing folders, outermost first; empty at top level.
    public var folderPath: [String]

    /// Creates an entry value.
    public init(title: String?, feedURL: URL, homePageURL: URL?, folderPath: [String]) {
        self.title = title
        self.feedURL = feedURL
        self.homePageURL = homePageURL
        self.folderPath = folderPath
    }
}
