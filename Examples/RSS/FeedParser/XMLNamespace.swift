/// Namespace URIs of the vocabularies the parsers read, and the conventional
/// prefixes used to recover them when a feed forgets to declare one.
enum XMLNamespace {
    static let none = ""
    static let atom = "http://www.w3.org/2005/Atom"
    static let atom03 = "http://purl.org/atom/ns#"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let rss10 = "http://purl.org/rss/1.0/"
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let dublinCoreTerms = "http://purl.org/dc/terms/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let media = "http://search.yahoo.com/mrss/"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    static let xhtml = "http://www.w3.org/1999/xhtml"

    /// Namespace for a prefix used without an `xmlns:` declaration.
    static func forUndeclaredPrefix(_ prefix: String) -> String? {
        switch prefix.lowercased() {
        case "atom", "atom10": atom
        case "rdf": rdf
        case "dc": dublinCore
        case "dcterms": dublinCoreTerms
        case "content": content
        case "media": media
        case "itunes": itunes
        default: nil
        }
    }
}
