import Foundation

/// A syndication feed decoded from RSS, RDF, Atom or JSON Feed data.
///
/// `ParsedFeed` is a plain value: it holds no reference to the parser or the
/// source bytes and can be sent freely between concurrency domains.
public struct ParsedFeed: Sendable, Hashable {
    /// The syntax the feed was written in.
    public var format: FeedFormat
    /// The feed's title, with HTML entities decoded.
    public var title: String?
    /// The web site the feed belongs to (RSS `link`, Atom `link rel="alternate"`,
    /// JSON Feed `home_page_url`), resolved to an absolute URL.
    public var homePageURL: URL?
    /// The URL the feed says it lives at (Atom/RSS `link rel="self"`,
    /// JSON Feed `feed_url`). `nil` when the document does not say.
    public var feedURL: URL?
    /// The feed's description or subtitle.
    public var summary: String?
    /// The feed's language code, when declared.
    public var language: String?
    /// A small icon or logo for the feed.
    public var iconURL: URL?
    /// Feed-level authors.
    public var authors: [ParsedAuthor]
    /// The articles, in document order. Several may share a ``ParsedItem/uniqueID`` (a feed
    /// that repeats a guid); see ``duplicateItemCount``.
    public var items: [ParsedItem]
    /// How many item-like elements the document contains (`item` and `entry` elements at any
    /// depth; the entries of a JSON Feed's `items`), whether or not they became ``items``.
    public var itemElementCount: Int
    /// The problems in the document the parser recovered from (XML errors, bytes that are not
    /// UTF-8, a document cut off at the end), at most one per kind; empty for a clean document.
    /// An app should pass them on rather than import a damaged feed in silence.
    public var warnings: [FeedParseWarning]

    /// Item-like elements that did not become items: a dialect or structure the parser does not
    /// read. Callers should say so rather than import fewer articles silently.
    public var unreadItemCount: Int {
        max(0, itemElementCount - items.count)
    }

    /// Items whose ``ParsedItem/uniqueID`` an earlier item already has. An app stores one
    /// article per ID; the reader keeps the first in document order (feeds list newest first).
    public var duplicateItemCount: Int {
        items.count - Set(items.map(\.uniqueID)).count
    }

    /// Creates a feed value. All properties except `format` default to empty;
    /// `itemElementCount` defaults to the number of items.
    public init(
        format: FeedFormat,
        title: String? = nil,
        homePageURL: URL? = nil,
        feedURL: URL? = nil,
        summary: String? = nil,
        language: String? = nil,
        iconURL: URL? = nil,
        authors: [ParsedAuthor] = [],
        items: [ParsedItem] = [],
        itemElementCount: Int? = nil,
        warnings: [FeedParseWarning] = []
    ) {
        self.format = format
        self.title = title
        self.homePageURL = homePageURL
        self.feedURL = feedURL
        self.summary = summary
        self.language = language
        self.iconURL = iconURL
        self.authors = authors
        self.items = items
        self.itemElementCount = itemElementCount ?? items.count
        self.warnings = warnings
    }
}
