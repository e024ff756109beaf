import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses normalized XML bytes into an ``XMLNode`` tree with Foundation's `XMLParser`,
/// recovering from the errors real feeds have.
///
/// XML errors do not lose the document. Namespace errors (an undeclared prefix: the
/// conventional namespace is assumed) and junk after the root element are passed over in
/// silence; any other error is logged as a warning and parsing goes on where the XML parser can
/// (libxml2 recovers from most), keeping what it read. A document that ends before its root
/// element closes keeps its complete items and drops the unfinished one. Only a document with
/// no root element at all, nested too deep to walk, or whose entities expand without end is
/// refused.
///
/// `capture` says which elements keep their content as one string instead of child nodes
/// (titles as text, descriptions as HTML, Atom XHTML as markup): see ``ContentCapture``.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// Deepest element nesting accepted. libxml2 itself imposes no limit here,
    /// and the converters walk the tree recursively.
    static let maximumDepth = 1_000
    /// Elements that are one article each: an unfinished one at the end of a cut-off document is
    /// dropped rather than stored half-read.
    private static let itemNames: Set<String> = ["item", "entry"]

    private let feedURL: URL?
    private let capture: (XMLNode) -> ContentCapture
    private var log: RecoveryLog
    private var stack: [XMLNode] = []
    private var root: XMLNode?
    private var rootClosed = false
    private var failure: FeedParserError?
    /// The content of the capturing element being read, if any.
    private var captured: CapturedContent?

    private init(feedURL: URL?, capture: @escaping (XMLNode) -> ContentCapture, log: RecoveryLog) {
        self.feedURL = feedURL
        self.capture = capture
        self.log = log
    }

    /// Parses `bytes` and returns the root element; the problems it recovered from are added
    /// to `log`.
    static func parse(
        _ bytes: [UInt8],
        feedURL: URL?,
        log: inout RecoveryLog,
        capture: @escaping (XMLNode) -> ContentCapture = { _ in .children }
    ) throws(FeedParserError) -> XMLNode {
        let builder = XMLTreeBuilder(feedURL: feedURL, capture: capture, log: log)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        _ = parser.parse()
        if let error = builder.failure { throw error }
        guard let root = builder.root else {
            let code = (parser.parserError as NSError?)?.code ?? 5  // libxml2 XML_ERR_DOCUMENT_END
            throw .malformedXML(code: code, line: parser.lineNumber, column: parser.columnNumber,
                                message: "the document has no root element")
        }
        if !builder.rootClosed {
            builder.keepUnfinishedText()
            builder.dropUnfinishedItems()
            builder.log.note(.truncated, line: parser.lineNumber)
        }
        log = builder.log
        return root
    }

    /// Gives a capturing element that was still open when the document ended the text read so
    /// far: a feed title cut off after three words keeps them.
    private func keepUnfinishedText() {
        guard let content = captured else { return }
        stack.last?.text = content.result
        captured = nil
    }

    /// Removes the item elements that were still open when the document ended.
    private func dropUnfinishedItems() {
        for (depth, node) in stack.enumerated() where depth > 0 && Self.itemNames.contains(node.name) {
            stack[depth - 1].children.removeAll { $0 === node }
        }
    }

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if stack.count + (captured?.depth ?? 0) >= Self.maximumDepth {
            if failure == nil {
                failure = .nestingTooDeep(limit: Self.maximumDepth, line: parser.lineNumber,
                                             column: parser.columnNumber)
            }
            parser.abortParsing()
            return
        }
        if captured != nil {
            captured?.start(elementName, attributes: attributes)
            return
        }
        var namespace = namespaceURI ?? ""
        if namespace.isEmpty, let qualifiedName, let colon = qualifiedName.firstIndex(of: ":") {
            namespace = XMLNamespace.forUndeclaredPrefix(String(qualifiedName[..<colon])) ?? ""
        }
        let node = XMLNode(name: elementName, namespace: namespace, attributes: attributes, parent: stack.last,
                           documentBase: feedURL)
        if let parent = stack.last {
            parent.children.append(node)
        } else if root == nil {
            root = node
        }
        stack.append(node)
        let mode = capture(node)
        if mode != .children { captured = CapturedContent(mode: mode) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName: String?) {
        if var content = captured {
            content.end(elementName)
            guard content.depth == 0 else {
                captured = content
                return
            }
            stack.last?.text = content.result
            captured = nil
        }
        guard let node = stack.popLast() else { return }
        if stack.isEmpty, node === root { rootClosed = true }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if captured != nil {
            captured?.characters(string)
        } else {
            stack.last?.text += string
        }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        let string = String(decoding: CDATABlock, as: UTF8.self)
        if captured != nil {
            captured?.cdata(string)
        } else {
            stack.last?.text += string
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil, !rootClosed else { return }
        let code = (parseError as NSError).code
        if Self.isHandledElsewhere(code) { return }
        if Self.refusesDocument(code) {
            failure = .malformedXML(code: code, line: parser.lineNumber, column: parser.columnNumber,
                                    message: "entities that expand without end")
            parser.abortParsing()
            return
        }
        log.note(.malformedXML(code: code, message: LibXMLErrors.describe(code)), line: parser.lineNumber)
    }

    /// libxml2 error codes that need no warning: namespace errors (200–299), where the
    /// conventional namespace is assumed; undeclared entities (26 error, 27 warning), which
    /// ``EntityRewriter`` has already kept as text; and the end of the document coming too early
    /// (5), which the truncation warning reports.
    private static func isHandledElsewhere(_ code: Int) -> Bool {
        (200..<300).contains(code) || code == 26 || code == 27 || code == 5
    }

    /// libxml2 error codes that refuse the document rather than recover: an entity that refers
    /// to itself (89) or expands past libxml2's amplification limit (110) is an attack, not a
    /// mistake, and nothing after it can be trusted.
    private static func refusesDocument(_ code: Int) -> Bool {
        code == 89 || code == 110
    }
}
