/// Why a document could not be parsed.
public enum FeedParserError: Error, Sendable, Hashable {
    /// The data is empty or contains only whitespace.
    case emptyData
    /// The data is not any of the supported formats.
    case unsupportedFormat
    /// The data is a supported format, but not one the called parser reads
    /// (e.g. OPML given to ``FeedParser``).
    case unexpectedFormat(FeedFormat)
    /// The XML is not well-formed. `code` is the `XMLParser` error code,
    /// `line` and `column` are 1-based positions reported by the parser.
    case malformedXML(code: Int, line: Int, column: Int, message: String)
    /// Elements are nested deeper than ``XMLTreeBuilder`` allows
    /// (`limit` levels); parsing stopped at `line`/`column` to protect the stack.
    case nestingTooDeep(limit: Int, line: Int, column: Int)
    /// The JSON could not be read or is not a JSON Feed object.
    case malformedJSON(message: String)
    /// Expanding the entities the document declares would add more than `limit` bytes.
    case entityExpansionTooLarge(limit: Int)
    /// The XML declaration names a character encoding that cannot be converted.
    case unsupportedEncoding(String)
}
