import Foundation

/// Reads an RSS 1.0 / RSS 0.90 document (`<rdf:RDF>`) from an ``XMLNode`` tree.
///
/// In RDF feeds the items are siblings of the channel, and `rdf:about` serves as
/// the item identifier.
enum RDFParser {
    static func feed(from root: XMLNode, feedURL: URL) -> ParsedFeed {
        let namespace = root.child("channel", XMLNamespace.rss090) != nil ? XMLNamespace.rss090 : XMLNamespace.rss10
        let channel = root.child("channel", namespace)
        let homeNode = channel?.child("link", namespace)
        let imageNode = root.child("image", namespace)?.child("url", namespace)
        return ParsedFeed(
            format: .rdf,
            title: channel?.childText("title", namespace).map(HTMLText.plainText),
            homePageURL: homeNode?.resolve(homeNode?.trimmedText),
            summary: channel?.childText("description", namespace),
            language: channel?.childText("language", XMLNamespace.dublinCore),
            iconURL: imageNode?.resolve(imageNode?.trimmedText),
            items: root.children("item", namespace).map {
                RSSItemReader.item(from: $0, namespace: namespace, feedURL: feedURL)
            }
        )
    }
}
