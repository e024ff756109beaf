import Foundation

/// Reads an Atom 1.0 document (`<feed xmlns="http://www.w3.org/2005/Atom">`) or its
/// predecessor Atom 0.3 (`xmlns="http://purl.org/atom/ns#"`) from an ``XMLNode`` tree.
///
/// Links are resolved against `xml:base` in scope, then the feed URL.
/// An entry without `published` uses `updated` as its publication date, and an
/// entry without authors inherits the feed's authors, as RFC 4287 specifies.
/// Atom 0.3's own names are read too: `tagline`, `issued`, `created`, `modified`, an author's
/// `url`, and content `mode="escaped"`/`"xml"` with a MIME `type`.
struct AtomParser {
    /// The namespace of this document's Atom elements.
    private let atom: String

    /// How the tree builder reads Atom elements (in either Atom namespace, or none: some feeds
    /// forget it). `content`, `summary` and the titles are XHTML markup when `type="xhtml"`
    /// (Atom 1.0) or `mode="xml"` (Atom 0.3); otherwise content and summary are HTML, and a title
    /// is HTML when its type says so and text when not. Titles in markup are then read as their
    /// words (``HTMLText``), text titles as they are.
    static func capture(_ node: XMLNode) -> ContentCapture {
        let atomNamespaces = [XMLNamespace.atom, XMLNamespace.atom03, XMLNamespace.none]
        guard atomNamespaces.contains(node.namespace) else { return node.name == "title" ? .html : .children }
        let isXHTML = node.attributes["type"] == "xhtml" || node.attributes["mode"] == "xml"
        switch node.name {
        case "content", "summary": return isXHTML ? .xhtml : .html
        case "title", "subtitle", "tagline", "rights":
            if node.attributes["mode"] == "xml" { return isMarkup(node) ? .xhtml : .text }
            return isXHTML ? .xhtml : isMarkup(node) ? .html : .text
        default: return .children
        }
    }

    /// Whether a text construct holds markup: Atom 1.0's `html` and `xhtml` types, Atom 0.3's
    /// HTML MIME types and escaped mode.
    private static func isMarkup(_ node: XMLNode) -> Bool {
        let type = node.attributes["type"]?.lowercased() ?? ""
        return type == "html" || type == "xhtml" || type.contains("html") || node.attributes["mode"] == "escaped"
    }

    static func feed(from root: XMLNode, feedURL: URL) -> ParsedFeed {
        // A feed that forgets the namespace is read as Atom 1.0 in no namespace.
        let parser = AtomParser(atom: [XMLNamespace.atom03, XMLNamespace.none].contains(root.namespace) ? root.namespace : XMLNamespace.atom)
        return parser.feed(from: root, feedURL: feedURL)
    }

    private func feed(from root: XMLNode, feedURL: URL) -> ParsedFeed {
        let feedAuthors = authors(of: root)
        let icon = root.child("icon", atom) ?? root.child("logo", atom)
        return ParsedFeed(
            format: .atom,
            title: title(root.child("title", atom)),
            homePageURL: link(of: root, relation: "alternate"),
            feedURL: link(of: root, relation: "self"),
            summary: text(root.child("subtitle", atom)) ?? text(root.child("tagline", atom)),
            language: root.attribute("xml:lang"),
            iconURL: icon?.resolve(icon?.trimmedText),
            authors: feedAuthors,
            items: root.children("entry", atom).map { item(from: $0, feedAuthors: feedAuthors, feedURL: feedURL) }
        )
    }

    private func item(from entry: XMLNode, feedAuthors: [ParsedAuthor], feedURL: URL) -> ParsedItem {
        let externalID = entry.childText("id", atom)
        let title = title(entry.child("title", atom))
        let url = link(of: entry, relation: "alternate")
        let published = date(entry, ["published", "issued", "created"])
        let modified = date(entry, ["updated", "modified"])
        let content = entry.child("content", atom)
        let isText = content.map(isPlainText) ?? false
        let contentHTML = isText ? nil : text(content)
        let contentText = isText ? text(content) : nil
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
            summary: text(entry.child("summary", atom)),
            datePublished: published ?? modified,
            dateModified: modified,
            authors: entryAuthors.isEmpty ? feedAuthors : entryAuthors,
            tags: entry.children("category", atom).compactMap { $0.attribute("label") ?? $0.attribute("term") },
            attachments: attachments(of: entry)
        )
    }

    /// Atom 1.0 content is text unless `type` says `html` or `xhtml`; Atom 0.3 content is text
    /// when its MIME type is `text/plain` (the default) and it is not escaped markup.
    private func isPlainText(_ content: XMLNode) -> Bool {
        let type = content.attribute("type")?.lowercased()
        if atom != XMLNamespace.atom03 { return (type ?? "text") == "text" }
        return (type ?? "text/plain") == "text/plain" && content.attribute("mode") != "xml"
    }

    /// A title as a person reads it: the words of a title in markup, a text title as it is.
    private func title(_ node: XMLNode?) -> String? {
        guard let node, let text = text(node) else { return nil }
        return Self.isMarkup(node) ? HTMLText.plainText(text).trimmedNonEmpty : text
    }

    /// The trimmed text of a text construct, decoded from base64 when Atom 0.3 says
    /// `mode="base64"` (a value that is not base64 is kept as it is).
    private func text(_ node: XMLNode?) -> String? {
        guard let node, let text = node.trimmedText else { return nil }
        guard node.attribute("mode") == "base64" else { return text }
        let compact = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact), let decoded = String(data: data, encoding: .utf8) else { return text }
        return decoded.trimmedNonEmpty
    }

    /// The `href` of the first `link` with this `rel` (a missing `rel` means `alternate`).
    private func link(of node: XMLNode, relation: String) -> URL? {
        for linkNode in node.children("link", atom) where (linkNode.attribute("rel") ?? "alternate") == relation {
            if let url = linkNode.resolveAttribute("href") { return url }
        }
        return nil
    }

    /// The first of these child elements that holds a date.
    private func date(_ node: XMLNode, _ names: [String]) -> Date? {
        for name in names {
            if let text = node.childText(name, atom), let date = DateParser.date(from: text) { return date }
        }
        return nil
    }

    private func authors(of node: XMLNode) -> [ParsedAuthor] {
        node.children("author", atom).compactMap { authorNode in
            let uri = authorNode.child("uri", atom) ?? authorNode.child("url", atom)
            let author = ParsedAuthor(
                name: authorNode.childText("name", atom).map(HTMLEntityDecoder.decode),
                url: uri?.resolve(uri?.trimmedText),
                email: authorNode.childText("email", atom)
            )
            return author.isEmpty ? nil : author
        }
    }

    private func attachments(of entry: XMLNode) -> [ParsedAttachment] {
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
