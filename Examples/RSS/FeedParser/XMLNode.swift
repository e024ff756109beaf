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
    /// The base URL in effect for this element (`xml:base` or the document's base).
    private(set) var baseURL: URL?
    /// `true` when an `xml:base` on this element or an ancestor sets ``baseURL``.
    private(set) var hasXMLBase = false
    /// Character data directly inside the element, or serialized markup.
    var text: String = ""
    /// Child elements in document order.
    var children: [XMLNode] = []

    init(name: String, namespace: String, attributes: [String: String], parent: XMLNode?, documentBase: URL?) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        inheritBase(from: parent, documentBase: documentBase)
    }

    /// Sets ``baseURL`` from this element's `xml:base`, resolved against the parent's base
    /// (or `documentBase` for the root).
    private func inheritBase(from parent: XMLNode?, documentBase: URL?) {
        let parentBase = parent.map(\.baseURL) ?? documentBase
        if let xmlBase = attributes["xml:base"], let resolved = URLResolver.resolve(xmlBase, against: parentBase) {
            baseURL = resolved
            hasXMLBase = true
        } else {
            baseURL = parentBase
            hasXMLBase = parent?.hasXMLBase ?? false
        }
    }

    /// Recomputes the base URLs of this tree for a different document base: a feed read from a
    /// file resolves its relative links against its own home page rather than the file.
    func rebase(on documentBase: URL) {
        var pending: [(node: XMLNode, parent: XMLNode?)] = [(self, nil)]
        while let (node, parent) = pending.popLast() {
            node.inheritBase(from: parent, documentBase: documentBase)
            pending += node.children.map { ($0, node) }
        }
    }

    /// The number of elements in this tree, itself included, with one of these local names.
    func countElements(named names: Set<String>) -> Int {
        var count = 0
        var pending = [self]
        while let node = pending.popLast() {
            if names.contains(node.name) { count += 1 }
            pending += node.children
        }
        return count
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

    /// Resolves an `href`-like attribute. An empty value under an `xml:base` is a reference to
    /// that base itself; elsewhere it means no link.
    func resolveAttribute(_ name: String) -> URL? {
        if hasXMLBase, let value = attributes[name], value.trimmedNonEmpty == nil { return baseURL }
        return resolve(attribute(name))
    }
}
