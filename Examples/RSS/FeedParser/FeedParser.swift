import Foundation

/// Entry point: parses RSS 2.0, RSS 1.0 (RDF), Atom 1.0 and JSON Feed 1.0/1.1
/// documents, and RSS 2.0 written as JSON, into a ``ParsedFeed``.
///
/// The format is detected from the bytes, never from the URL or a MIME type.
/// Parsing is synchronous, has no shared state and may run on any thread.
///
/// ```swift
/// let feed = try FeedParser.parse(data: data, url: subscriptionURL)
/// for item in feed.items { print(item.uniqueID, item.title ?? "") }
/// ```
public enum FeedParser {
    /// Parses a feed document.
    ///
    /// - Parameters:
    ///   - data: The raw bytes as downloaded (any BOM or declared encoding).
    ///   - url: The subscription URL. It is part of every ``ParsedItem/uniqueID``, and relative
    ///     links are resolved against it (after any `xml:base`) unless `documentURL` is given.
    ///   - documentURL: Where the bytes were actually read from, when that differs from `url`
    ///     (a subscription whose feed has moved): relative links resolve against it.
    ///
    /// A document read from a file (any `url` that is not http or https) resolves relative links
    /// against the feed's own home page link when that is an absolute web address.
    ///
    /// A document that is not well-formed XML is read as well as it can be: every item that can
    /// be read is kept, and ``ParsedFeed/warnings`` says what was wrong and where.
    /// - Throws: ``FeedParserError``; OPML input gives
    ///   ``FeedParserError/unexpectedFormat(_:)`` (use ``OPMLParser``).
    public static func parse(data: Data, url: URL, documentURL: URL? = nil) throws(FeedParserError) -> ParsedFeed {
        if FeedFormatSniffer.looksLikeJSON(data) {
            return try JSONFeedParser.parse(data: data, feedURL: url)
        }
        var log = RecoveryLog()
        let bytes = try XMLInputNormalizer.normalize(data, log: &log)
        guard let format = FeedFormatSniffer.xmlFormat(bytes) else {
            throw bytes.allSatisfy({ (0x09...0x0D).contains($0) || $0 == 0x20 }) ? .emptyData : .unsupportedFormat
        }
        let convert: (XMLNode) -> ParsedFeed
        let capture: (XMLNode) -> ContentCapture
        switch format {
        case .rss:
            convert = { RSSParser.feed(from: $0, feedURL: url) }
            capture = RSSItemReader.capture
        case .rdf:
            convert = { RDFParser.feed(from: $0, feedURL: url) }
            capture = RSSItemReader.capture
        case .atom:
            convert = { AtomParser.feed(from: $0, feedURL: url) }
            capture = AtomParser.capture
        case .jsonFeed, .opml: throw .unexpectedFormat(format)
        }
        let base = documentURL ?? url
        let root = try XMLTreeBuilder.parse(bytes, feedURL: base, log: &log, capture: capture)
        var feed = convert(root)
        if !isWeb(base), let home = feed.homePageURL, isWeb(home), resolvedAgainstFile(feed) {
            root.rebase(on: home)
            feed = convert(root)
        }
        feed.itemElementCount = root.countElements(named: ["item", "entry"])
        feed.warnings = log.warnings
        return feed
    }

    private static func isWeb(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    }

    /// Whether any link of `feed` was resolved against a file: only then is it worth resolving
    /// the links again against the feed's home page.
    private static func resolvedAgainstFile(_ feed: ParsedFeed) -> Bool {
        func isFile(_ url: URL?) -> Bool { url?.isFileURL == true }
        if isFile(feed.feedURL) || isFile(feed.iconURL) || feed.authors.contains(where: { isFile($0.url) }) { return true }
        return feed.items.contains { item in
            isFile(item.url) || isFile(item.externalURL) || isFile(item.imageURL)
                || item.authors.contains { isFile($0.url) } || item.attachments.contains { isFile($0.url) }
        }
    }

    /// The format of `data`, or `nil` when it is none of the supported ones.
    /// Only the beginning of the document is examined; it may still be ill-formed.
    public static func detectFormat(data: Data) -> FeedFormat? {
        if FeedFormatSniffer.looksLikeJSON(data) {
            let start = data.prefix(64 * 1024)
            if start.range(of: Data("jsonfeed.org".utf8)) != nil { return .jsonFeed }
            return start.range(of: Data(#""rss""#.utf8)) != nil ? .rss : nil
        }
        // Only the format is asked for here: problems in the document are for the parse to report.
        var ignored = RecoveryLog()
        guard let bytes = try? XMLInputNormalizer.normalizeEncoding([UInt8](data.prefix(64 * 1024)), log: &ignored) else {
            return nil
        }
        return FeedFormatSniffer.xmlFormat(bytes)
    }
}
