import Foundation

/// Parses OPML 1.0/2.0 subscription lists, including nested folders.
public enum OPMLParser {
    /// Parses an OPML document.
    ///
    /// - Parameter data: The raw bytes (any BOM or declared encoding).
    /// - Throws: ``FeedParserError``; a feed (not OPML) gives
    ///   ``FeedParserError/unexpectedFormat(_:)``.
    public static func parse(data: Data) throws(FeedParserError) -> OPMLDocument {
        var log = RecoveryLog()
        let bytes = try XMLInputNormalizer.normalize(data, log: &log)
        guard let format = FeedFormatSniffer.xmlFormat(bytes) else {
            throw bytes.allSatisfy({ (0x09...0x0D).contains($0) || $0 == 0x20 }) ? .emptyData : .unsupportedFormat
        }
        guard format == .opml else { throw .unexpectedFormat(format) }
        let root = try XMLTreeBuilder.parse(bytes, feedURL: nil, log: &log)
        let title = root.child("head", XMLNamespace.none)?.childText("title", XMLNamespace.none)
        let body = root.child("body", XMLNamespace.none)
        return OPMLDocument(title: title.map(HTMLEntityDecoder.decode),
                            outlines: body.map(outlines(in:)) ?? [], warnings: log.warnings)
    }

    /// Converts the `<outline>` children of `node`. Recursion depth is bounded by
    /// the XML parser's own nesting limit.
    private static func outlines(in node: XMLNode) -> [OPMLOutline] {
        node.children("outline", XMLNamespace.none).map { element in
            let title = element.attribute("title") ?? element.attribute("text")
            let feedAddress = element.attribute("xmlUrl") ?? element.attribute("xmlurl")
            return OPMLOutline(
                title: title.map(HTMLEntityDecoder.decode),
                feedURL: element.resolve(feedAddress),
                homePageURL: element.resolve(element.attribute("htmlUrl") ?? element.attribute("htmlurl")),
                type: element.attribute("type"),
                children: outlines(in: element),
                feedAddress: feedAddress?.trimmedNonEmpty
            )
        }
    }
}
