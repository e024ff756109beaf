import Foundation

/// Reads an RSS 0.9x/2.0 document (`<rss><channel>…`) from an ``XMLNode`` tree.
///
/// The core elements are in no namespace, or in whatever default namespace the `rss` element
/// declares (some feeds say `xmlns="http://backend.userland.com/rss2"`).
enum RSSParser {
    static func feed(from root: XMLNode, feedURL: URL) -> ParsedFeed {
        let core = root.namespace
        let channel = root.child("channel", core) ?? root
        // Some RSS 0.9x feeds place items beside the channel rather than inside it.
        let itemNodes = channel.children("item", core) + (channel === root ? [] : root.children("item", core))
        let selfLink = channel.children("link", XMLNamespace.atom).first { $0.attribute("rel") == "self" }
        let homeNode = channel.child("link", core)
        return ParsedFeed(
            format: .rss,
            title: channel.childText("title", core).map(HTMLText.plainText),
            homePageURL: homeNode?.resolve(homeNode?.trimmedText),
            feedURL: selfLink?.resolve(selfLink?.attribute("href")),
            summary: channel.childText("description", core),
            language: channel.childText("language", core) ?? channel.childText("language", XMLNamespace.dublinCore),
            iconURL: iconURL(of: channel, namespace: core),
            authors: feedAuthors(of: channel, namespace: core),
            items: itemNodes.map { RSSItemReader.item(from: $0, namespace: core, feedURL: feedURL) }
        )
    }

    private static func iconURL(of channel: XMLNode, namespace: String) -> URL? {
        if let image = channel.child("image", namespace), let urlNode = image.child("url", namespace) {
            return urlNode.resolve(urlNode.trimmedText)
        }
        if let image = channel.child("image", XMLNamespace.itunes) { return image.resolve(image.attribute("href")) }
        return nil
    }

    private static func feedAuthors(of channel: XMLNode, namespace: String) -> [ParsedAuthor] {
        if let name = channel.childText("author", XMLNamespace.itunes) ?? channel.childText("creator", XMLNamespace.dublinCore) {
            return [ParsedAuthor(name: name)]
        }
        if let editor = channel.childText("managingEditor", namespace) {
            return [RSSItemReader.author(fromRSSAuthor: editor)]
        }
        return []
    }
}
