import Foundation

/// Reads RSS-in-JSON — RSS 2.0 written as JSON, `{"rss": {"version": "2.0", "channel": {…}}}`, as
/// some sites serve it beside their XML — by building the XML tree it mirrors and reading that
/// with ``RSSParser``, so both spellings of a feed give the same articles.
///
/// Each key becomes an element of that name (a prefixed key such as `"dc:creator"` gets its
/// conventional namespace), an array repeats the element, and a string, number or boolean is the
/// element's text. An object's own scalar fields are also its attributes, which is how the JSON
/// spells `enclosure`'s `url`, `length` and `type`; its `value` field is its text (`guid`).
enum RSSInJSONReader {
    typealias Object = [String: Any]

    static func feed(fromRSS rss: Object, feedURL: URL) -> ParsedFeed {
        let root = XMLNode(name: "rss", namespace: XMLNamespace.none, attributes: attributes(of: rss), parent: nil,
                           documentBase: feedURL)
        addChildren(of: rss, to: root, documentBase: feedURL)
        var feed = RSSParser.feed(from: root, feedURL: feedURL)
        feed.itemElementCount = root.countElements(named: ["item"])
        return feed
    }

    private static func addChildren(of object: Object, to parent: XMLNode, documentBase: URL) {
        for key in object.keys.sorted() where key != "value" {
            let values = object[key] as? [Any] ?? [object[key] as Any]
            for value in values {
                parent.children.append(element(named: key, value: value, parent: parent, documentBase: documentBase))
            }
        }
    }

    private static func element(named key: String, value: Any, parent: XMLNode, documentBase: URL) -> XMLNode {
        var name = key
        var namespace = XMLNamespace.none
        if let colon = key.firstIndex(of: ":") {
            name = String(key[key.index(after: colon)...])
            namespace = XMLNamespace.forUndeclaredPrefix(String(key[..<colon])) ?? XMLNamespace.none
        }
        let fields = value as? Object ?? [:]
        let node = XMLNode(name: name, namespace: namespace, attributes: attributes(of: fields), parent: parent,
                           documentBase: documentBase)
        if value is Object {
            node.text = text(fields["value"]) ?? ""
            addChildren(of: fields, to: node, documentBase: documentBase)
        } else {
            node.text = text(value) ?? ""
        }
        return node
    }

    /// The object's scalar fields as attributes; RSS's `isPermaLink` is also read from the
    /// `flPermalink` some writers use.
    private static func attributes(of object: Object) -> [String: String] {
        var attributes: [String: String] = [:]
        for (key, value) in object {
            if let scalar = text(value) { attributes[key] = scalar }
        }
        if attributes["isPermaLink"] == nil, let permalink = attributes["flPermalink"] {
            attributes["isPermaLink"] = permalink
        }
        return attributes
    }

    /// A string, number or boolean as text; `nil` for anything else.
    private static func text(_ value: Any?) -> String? {
        switch value {
        case let string as String: return string
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumbers of type char; RSS spells them as words.
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            return number.stringValue
        default: return nil
        }
    }
}
