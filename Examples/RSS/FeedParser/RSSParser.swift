import Foundation

/// Reads an RSS 0.9x/2.0 document (`<rss><channel>…`) from an ``XMLNode`` tree.
enum RSSParser {
    static func feed(from root: XMLNode, feedURL: URL) -> ParsedFeed {
        let none = XMLNamespace.none
        let channel = root.child("channel", none) ?? root
        // Some RSS 0.9x feeds place items beside the channel rather than inside it.
        let itemNodes = channel.children("item", none) + (channel === root ? [] : root.children("item", none))
        let selfLink = channel.children("link", XMLNamespace.atom).first { $0.attribute("rel") == "self" }
        let homeNode = channel.child("link", none)
        return ParsedFeed(
            format: .rss,
            title: channel.childText("title", none).map(HTMLEntityDecoder.decode),
            homePageURL: homeNode?.resolve(homeNode?.trimmedText),
            feedURL: selfLink?.resolve(selfLink?.attribute("href")),
            summary: channel.childText("description", none),
            language: channel.childText("language", none) ?? channel.childText("language", XMLNamespace.dublinCore),
            iconURL: iconURL(of: channel),
            authors: feedAuthors(of: channel),
            items: itemNodes.map { RSSItemReader.item(from: $0, namespace: none, feedURL: feedURL) }
        )
    }

    private static func iconURL(of channel: XMLNode) -> URL? {
        if let image = channel.child("image", XMLNamespace.none), let urlNode = image.child("url", XMLNamespace.none) {
            return urlNode.resolve(urlNode.trimmedText)
        }
        if let image = channel.child("image", XMLNamespace.itunes) { return image.resolve(image.attribute("href")) }
        return nil
    }

    private static func feedAuthors(of channel: XMLNode) -> [ParsedAuthor] {
        if let name = channel.childText("author", XMLNamespace.itunes) ?? channel.childText("creator", XMLNamespace.dublinCore) {
            return [ParsedAuthor(name: name)]
        }
        if let editor = channel.childText("managingEditor", XMLNamespace.none) {
            return [RSSItemReader.author(fromRSSAuthor: editor)]
        }
        return []
    }
}
