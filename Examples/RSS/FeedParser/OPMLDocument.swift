/// A parsed OPML subscription list.
public struct OPMLDocument: Sendable, Hashable {
    /// `<head><title>`.
    public var title: String?
    /// The top-level outlines of `<body>`.
    public var outlines: [OPMLOutline]
    /// The problems in the document the parser recovered from (see ``FeedParseWarning``).
    public var warnings: [FeedParseWarning]

    /// Creates a document value.
    public init(title: String? = nil, outlines: [OPMLOutline] = [], warnings: [FeedParseWarning] = []) {
        self.title = title
        self.outlines = outlines
        self.warnings = warnings
    }

    /// Every feed in document order, with its folder path. Folders are
    /// untitled (`""`) in the path when the outline has no title.
    public var feeds: [OPMLFeedEntry] {
        var result: [OPMLFeedEntry] = []
        // Explicit stack instead of recursion: deep nesting cannot exhaust the call stack.
        var stack: [(outline: OPMLOutline, path: [String])] = outlines.reversed().map { ($0, []) }
        while let (outline, path) = stack.popLast() {
            if let feedURL = outline.feedURL {
                result.append(OPMLFeedEntry(title: outline.title, feedURL: feedURL,
                                            homePageURL: outline.homePageURL, folderPath: path))
            }
            let childPath = outline.isFolder ? path + [outline.title ?? ""] : path
            stack.append(contentsOf: outline.children.reversed().map { ($0, childPath) })
        }
        return result
    }

    /// The `xmlUrl` values that are not usable feed URLs (a plain path, a relative address
    /// with no base), in document order: outlines that name a feed the list can't locate.
    public var unusableFeedAddresses: [String] {
        var result: [String] = []
        var stack = Array(outlines.reversed())
        while let outline = stack.popLast() {
            if outline.feedURL == nil, let address = outline.feedAddress { result.append(address) }
            stack.append(contentsOf: outline.children.reversed())
        }
        return result
    }

    /// Every folder outline (an outline without feed URL that has children),
    /// at any depth, in document order.
    public var folders: [OPMLOutline] {
        var result: [OPMLOutline] = []
        var stack = Array(outlines.reversed())
        while let outline = stack.popLast() {
            if outline.isFolder, !outline.children.isEmpty { result.append(outline) }
            stack.append(contentsOf: outline.children.reversed())
        }
        return result
    }
}
