import Foundation

/// A lightweight element of the tree ``XMLTreeBuilder`` produces.
///
/// Only what feed parsing needs is kept: the local name, the namespace URI,
/// the attributes, the direct character data (or, for captured XHTML, the
/// serialized markup), the child elements and the effective `xml:base`.
final class XMLNode {
    /// Local name, without prefix.
    let name: String
    /// Namespace URI, or `""` when none.
    let namespace: String
    /// Attributes by qualified name (`href`, `rdf:about`, `xml:base`, …).
    let attributes: [String: String]
    /// The base URL in effect for this element (`xml:base` or the feed URL).
    let baseURL: URL?
    /// Character data directly inside the element, or serialized markup.
    var text: String = ""
    /// Child elements in document order.
    var children: [XMLNode] = []

    init(name: String, namespace: String, attributes: [String: String], baseURL: URL?) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.baseURL = baseURL
    }

    /// `true` if the element has this local name and namespace.
    func `is`(_ name: String, _ namespace: String) -> Bool {
        self.name == name && self.namespace == namespace
    }

    /// The first child with this name and namespace.
    func child(_ name: String, _ namespace: String) -> XMLNode? {
        children.first { $0.is(name, namespace) }
    }

    /// All children with this name and namespace.
    func children(_ name: String, _ namespace: String) -> [XMLNode] {
        children.filter { $0.is(name, namespace) }
    }

    /// The trimmed text of the element, or `nil` when empty.
    var trimmedText: String? {
        text.trimmedNonEmpty
    }

    /// The trimmed text of the first matching child.
    func childText(_ name: String, _ namespace: String) -> String? {
        child(name, namespace)?.trimmedText
    }

    /// An attribute value trimmed, or `nil` when absent or empty.
    func attribute(_ name: String) -> String? {
        attributes[name]?.trimmedNonEmpty
    }

    /// Resolves a possibly relative reference against this element's base URL.
    func resolve(_ reference: String?) -> URL? {
        URLResolver.resolve(reference, against: baseURL)
    }
}
