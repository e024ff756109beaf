import Foundation

/// One article of a ``ParsedFeed``.
public struct ParsedItem: Sendable, Hashable {
    /// A stable identifier derived from the feed URL and the article's
    /// identity; see ``ArticleIdentifier`` for the exact rule.
    public var uniqueID: String
    /// The identifier the feed itself gives the article: RSS `guid`,
    /// RDF `rdf:about`, Atom `id`, JSON Feed `id`.
    public var externalID: String?
    /// The article title, with HTML entities decoded.
    public var title: String?
    /// The article's permalink, resolved against `xml:base` and the feed URL.
    public var url: URL?
    /// A link the article is about (JSON Feed `external_url`, Atom `rel="related"`).
    public var externalURL: URL?
    /// The article body as HTML (RSS `content:encoded`/`description`,
    /// Atom `content`, JSON Feed `content_html`).
    public var contentHTML: String?
    /// The article body as plain text (Atom `type="text"` content, JSON Feed `content_text`).
    public var contentText: String?
    /// A short summary (RSS `description` when `content:encoded` is present,
    /// Atom `summary`, JSON Feed `summary`).
    public var summary: String?
    /// The main image of the article, when the feed names one.
    public var imageURL: URL?
    /// When the article was first published.
    public var datePublished: Date?
    /// When the article was last modified.
    public var dateModified: Date?
    /// The article's authors.
    public var authors: [ParsedAuthor]
    /// Category names or tags.
    public var tags: [String]
    /// Enclosures (podcast audio, images, …).
    public var attachments: [ParsedAttachment]

    /// Creates an item value. Everything except `uniqueID` defaults to empty.
    public init(
        uniqueID: String,
        externalID: String? = nil,
        title: String? = nil,
        url: URL? = nil,
        externalURL: URL? = nil,
        contentHTML: String? = nil,
        contentText: String? = nil,
        summary: String? = nil,
        imageURL: URL? = nil,
        datePublished: Date? = nil,
        dateModified: Date? = nil,
        authors: [ParsedAuthor] = [],
        tags: [String] = [],
        attachments: [ParsedAttachment] = []
    ) {
        self.uniqueID = uniqueID
        self.externalID = externalID
        self.title = title
        self.url = url
        self.externalURL = externalURL
        self.contentHTML = contentHTML
        self.contentText = contentText
        self.summary = summary
        self.imageURL = imageURL
        self.datePublished = datePublished
        self.dateModified = dateModified
        self.authors = authors
        self.tags = tags
        self.attachments = attachments
    }
}
