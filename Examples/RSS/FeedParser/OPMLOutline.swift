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
    /// The `xmlUrl` attribute as written, even when it is not a usable URL (such as a plain
    /// path), so that an importer can report it instead of dropping it.
    public var feedAddress: String?

    /// Creates an outline value.
    public init(title: String? = nil, feedURL: URL? = nil, homePageURL: URL? = nil, type: String? = nil,
                children: [OPMLOutline] = [], feedAddress: String? = nil) {
        self.title = title
        self.feedURL = feedURL
        self.homePageURL = homePageURL
        self.type = type
        self.children = children
        self.feedAddress = feedAddress ?? feedURL?.absoluteString
    }

    /// `true` for an outline without a feed URL (a folder, possibly empty).
    public var isFolder: Bool { feedURL == nil }
}
