import Foundation

/// Reads an Atom 1.0 document (`<feed xmlns="http://www.w3.org/2005/Atom">`)
/// from an ``XMLNode`` tree.
///
/// Links are resolved against `xml:base` in scope, then the feed URL.
/// An entry without `published` uses `updated` as its publication date, and an
/// entry without authors inherits the feed's authors, as RFC 4287 specifies.
enum AtomParser {
    private static let atom = XMLNamespace.atom

    /// Text constructs with `type="xhtml"` are kept as markup by the tree builder.
    static func capturesMarkup(_ node: XMLNode) -> Bool {
        node.namespace == atom && node.attributes["type"] == "xhtml"
    }

    static func feed(from root: XMLNode, feedURL: URL) -> ParsedFeed {
        let feedAuthors = authors(of: root)
        let icon = root.child("icon", atom) ?? root.child("logo", atom)
        return ParsedFeed(
            format: .atom,
            title: root.childText("title", atom).map(HTMLEntityDecoder.decode),
            homePageURL: link(of: root, relation: "alternate"),
            feedURL: link(of: root, relation: "self"),
            summary: root.childText("subtitle", atom),
            language: root.attribute("xml:lang"),
            iconURL: icon?.resolve(icon?.trimmedText),
            authors: feedAuthors,
            items: root.children("entry", atom).map { item(from: $0, feedAuthors: feedAuthors, feedURL: feedURL) }
        )
    }

    private static func item(from entry: XMLNode, feedAuthors: [ParsedAuthor], feedURL: URL) -> ParsedItem {
        let externalID = entry.childText("id", atom)
        let title = entry.childText("title", atom).map(HTMLEntityDecoder.decode)
        let url = link(of: entry, relation: "alternate")
        let published = date(entry.childText("published", atom) ?? entry.childText("issued", atom))
        let modified = date(entry.childText("updated", atom) ?? entry.childText("modified", atom))
        let content = entry.child("content", atom)
        let isText = content.map { ($0.attribute("type") ?? "text") == "text" } ?? false
        let contentHTML = isText ? nil : content?.trimmedText
        let contentText = isText ? content?.trimmedText : nil
        let entryAuthors = authors(of: entry)
        return ParsedItem(
            uniqueID: ArticleIdentifier.uniqueID(feedURL: feedURL, externalID: externalID, link: url, title: title,
                                                 datePublished: published ?? modified,
                                                 content: contentHTML ?? contentText),
            externalID: externalID,
            title: title,
            url: url,
            externalURL: link(of: entry, relation: "related"),
            contentHTML: contentHTML,
            contentText: contentText,
            summary: entry.childText("summary", atom),
            datePublished: published ?? modified,
            dateModified: modified,
            authors: entryAuthors.isEmpty ? feedAuthors : entryAuthors,
            tags: entry.children("category", atom).compactMap { $0.attribute("label") ?? $0.attribute("term") },
            attachments: attachments(of: entry)
        )
    }

    /// The `href` of the first `link` with this `rel` (a missing `rel` means `alternate`).
    private static func link(of node: XMLNode, relation: String) -> URL? {
        for linkNode in node.children("link", atom) where (linkNode.attribute("rel") ?? "alternate") == relation {
            if let url = linkNode.resolve(linkNode.attribute("href")) { return url }
        }
        return nil
    }

    private static func date(_ text: String?) -> Date? {
        text.flatMap(DateParser.date(from:))
    }

    private static func authors(of node: XMLNode) -> [ParsedAuthor] {
        node.children("author", atom).compactMap { authorNode in
            let uri = authorNode.child("uri", atom)
            let author = ParsedAuthor(
                name: authorNode.childText("name", atom).map(HTMLEntityDecoder.decode),
                url: uri?.resolve(uri?.trimmedText),
                email: authorNode.childText("email", atom)
            )
            return author.isEmpty ? nil : author
        }
    }

    private static func attachments(of entry: XMLNode) -> [ParsedAttachment] {
        entry.children("link", atom).compactMap { linkNode in
            guard linkNode.attribute("rel") == "enclosure", let url = linkNode.resolve(linkNode.attribute("href")) else {
                return nil
            }
            let size = linkNode.attribute("length").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            return ParsedAttachment(url: url, mimeType: linkNode.attribute("type"),
                                    title: linkNode.attribute("title"), sizeInBytes: size)
        }
    }
}
