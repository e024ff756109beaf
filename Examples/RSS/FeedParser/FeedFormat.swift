/// The syntaxes the library understands.
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
    /// RSS 0.9x / 2.0 (`<rss>` root).
    case rss
    /// RSS 1.0 (`<rdf:RDF>` root).
    case rdf
    /// Atom 1.0 (`<feed>` root).
    case atom
    /// JSON Feed 1.0 or 1.1.
    case jsonFeed
    /// OPML subscription list (`<opml>` root); parse it with ``OPMLParser``.
    case opml
}
