import Foundation

/// Converts an RSS 2.0 `<item>` or RSS 1.0 `<item>` element into a ``ParsedItem``.
///
/// `namespace` is the namespace of the core elements: `""` for RSS 2.0,
/// ``XMLNamespace/rss10`` for RSS 1.0. Extension elements (Dublin Core,
/// `content:encoded`, Media RSS, iTunes, Atom links) are read in both.
enum RSSItemReader {
    /// How the tree builder reads RSS and RDF elements: every `title` (RSS, Dublin Core, Media
    /// RSS), `description` and `content:encoded` as HTML (titles are then read as their text, see
    /// ``HTMLText``).
    static func capture(_ node: XMLNode) -> ContentCapture {
        switch node.name {
        case "title", "description": return .html
        case "encoded" where node.namespace == XMLNamespace.content: return .html
        default: return .children
        }
    }

    static func item(from node: XMLNode, namespace: String, feedURL: URL) -> ParsedItem {
        let guid = node.childText("guid", namespace)
        let externalID = guid ?? node.attribute("rdf:about")
        let title = (node.childText("title", namespace) ?? node.childText("title", XMLNamespace.dublinCore)
            ?? mediaTitle(of: node)).map(HTMLText.plainText)
        let url = link(of: node, namespace: namespace)
        let encoded = node.child("encoded", XMLNamespace.content)?.trimmedText
        let description = node.childText("description", namespace)
        let published = date(node, [("pubDate", namespace), ("date", XMLNamespace.dublinCore),
                                    ("issued", XMLNamespace.dublinCoreTerms), ("created", XMLNamespace.dublinCoreTerms)])
        let modified = date(node, [("modified", XMLNamespace.dublinCoreTerms), ("updated", XMLNamespace.atom)])
        let contentHTML = encoded ?? description
        let uniqueID = ArticleIdentifier.uniqueID(feedURL: feedURL, externalID: externalID, link: url, title: title,
                                                  datePublished: published, content: contentHTML)
        return ParsedItem(
            uniqueID: uniqueID,
            externalID: externalID,
            title: title,
            url: url,
            contentHTML: contentHTML,
            summary: encoded != nil ? description : nil,
            imageURL: imageURL(of: node),
            datePublished: published ?? modified,
            dateModified: modified,
            authors: authors(of: node, namespace: namespace),
            tags: tags(of: node, namespace: namespace),
            attachments: attachments(of: node, namespace: namespace)
        )
    }

    /// A Media RSS title: on the item itself, or on its `media:group` or first `media:content`
    /// (video and podcast feeds often give no other title).
    static func mediaTitle(of node: XMLNode) -> String? {
        let holders = [node] + node.children("group", XMLNamespace.media) + node.children("content", XMLNamespace.media)
        for holder in holders {
            if let title = holder.childText("title", XMLNamespace.media) { return title }
        }
        return nil
    }

    /// `link`, else a permalink `guid`, else an Atom alternate link.
    static func link(of node: XMLNode, namespace: String) -> URL? {
        if let linkNode = node.child("link", namespace), let url = linkNode.resolve(linkNode.trimmedText) {
            return url
        }
        if let guidNode = node.child("guid", namespace), guidNode.attribute("isPermaLink")?.lowercased() != "false",
           let text = guidNode.trimmedText, text.lowercased().hasPrefix("http") {
            return guidNode.resolve(text)
        }
        for atomLink in node.children("link", XMLNamespace.atom) where (atomLink.attribute("rel") ?? "alternate") == "alternate" {
            if let url = atomLink.resolve(atomLink.attribute("href")) { return url }
        }
        return nil
    }

    static func date(_ node: XMLNode, _ candidates: [(String, String)]) -> Date? {
        for (name, namespace) in candidates {
            if let text = node.childText(name, namespace), let date = DateParser.date(from: text) { return date }
        }
        return nil
    }

    /// `author` (`email (Name)`, a name, or `name`/`email`/`uri` child elements), `dc:creator`,
    /// `itunes:author`.
    static func authors(of node: XMLNode, namespace: String) -> [ParsedAuthor] {
        var result: [ParsedAuthor] = []
        for authorNode in node.children("author", namespace) {
            if let author = author(fromElement: authorNode) { result.append(author) }
        }
        for creator in node.children("creator", XMLNamespace.dublinCore) {
            if let name = creator.trimmedText { result.append(ParsedAuthor(name: HTMLEntityDecoder.decode(name))) }
        }
        if result.isEmpty, let name = node.childText("author", XMLNamespace.itunes) {
            result.append(ParsedAuthor(name: name))
        }
        return result
    }

    /// An `author` element: its text, or when it has child elements (as some blogs write it,
    /// `<author><name>…</name><title>…</title></author>`), its `name`, `email` and `uri` or `url`
    /// children in any namespace.
    static func author(fromElement node: XMLNode) -> ParsedAuthor? {
        guard !node.children.isEmpty else { return node.trimmedText.map(author(fromRSSAuthor:)) }
        func text(_ name: String) -> String? {
            node.children.first { $0.name == name }?.trimmedText
        }
        let author = ParsedAuthor(name: text("name").map(HTMLEntityDecoder.decode),
                                  url: node.resolve(text("uri") ?? text("url")), email: text("email"))
        return author.isEmpty ? nil : author
    }

    /// Splits `jane@example.com (Jane Doe)` into email and name.
    static func author(fromRSSAuthor text: String) -> ParsedAuthor {
        if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            let email = text[..<open].trimmingCharacters(in: .whitespaces)
            let name = text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            return ParsedAuthor(name: name.isEmpty ? nil : name, email: email.contains("@") ? email : nil)
        }
        if text.contains("@"), !text.contains(" ") {
            return ParsedAuthor(email: text.hasPrefix("mailto:") ? String(text.dropFirst(7)) : text)
        }
        return ParsedAuthor(name: text)
    }

    static func tags(of node: XMLNode, namespace: String) -> [String] {
        (node.children("category", namespace) + node.children("subject", XMLNamespace.dublinCore))
            .compactMap { $0.trimmedText.map(HTMLEntityDecoder.decode) }
    }

    static func attachments(of node: XMLNode, namespace: String) -> [ParsedAttachment] {
        node.children("enclosure", namespace).compactMap { enclosure in
            guard let url = enclosure.resolve(enclosure.attribute("url")) else { return nil }
            let size = enclosure.attribute("length").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            return ParsedAttachment(url: url, mimeType: enclosure.attribute("type"), sizeInBytes: size)
        }
    }

    /// `media:thumbnail`, an image `media:content`, or `itunes:image`.
    static func imageURL(of node: XMLNode) -> URL? {
        if let thumbnail = node.child("thumbnail", XMLNamespace.media), let url = thumbnail.resolve(thumbnail.attribute("url")) {
            return url
        }
        for media in node.children("content", XMLNamespace.media)
        where media.attribute("medium") == "image" || media.attribute("type")?.hasPrefix("image/") == true {
            if let url = media.resolve(media.attribute("url")) { return url }
        }
        if let image = node.child("image", XMLNamespace.itunes) { return image.resolve(image.attribute("href")) }
        return nil
    }
}
