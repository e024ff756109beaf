import Foundation

/// One `<outline>` of an OPML subscription list: a feed, or a folder of outlines.
public struct OPMLOutline: Sendable, Hashable {
    /// The display name (`title`, else `text`).
    public var title: String?
    /// The feed address (`xmlUrl`); `nil` for folders.
    public var feedURL: URL?
    /// The site address (`htmlUrl`).
    public var homePageURL: URL?
    /// The declared `type` (usually `rss`).
    public var type: String?
    /// Nested outlines.
    public var children: [OPMLOutline]

    /// Creates an outline value.
    public init(title: String? = nil, feedURL: URL? = nil, homePageURL: URL? = nil, type: String? = nil,
                children: [OPMLOutline] = []) {
        self.title = title
        self.feedURL = feedURL
        self.homePageURL = homePageURL
        self.type = type
        self.children = children
    }

    /// `true` for an outline without a feed URL (a folder, possibly empty).
    public var isFolder: Bool { feedURL == nil }
}
