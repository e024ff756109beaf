import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses normalized XML bytes into an ``XMLNode`` tree with Foundation's
/// `XMLParser`, and turns parser failures into ``FeedParserError``.
///
/// Recoverable problems common in real feeds are tolerated: undeclared
/// namespace prefixes (the conventional namespace is assumed), undeclared
/// entities (which ``EntityRewriter`` has already kept as text), and junk after the root element. Any other error before
/// the root element is closed makes the document ill-formed.
///
/// Elements for which `capturesMarkup` returns `true` (Atom `type="xhtml"`
/// constructs) do not get child nodes: their content is serialized back to
/// markup into `text`, without the wrapping `<div>`.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// Deepest element nesting accepted. libxml2 itself imposes no limit here,
    /// and the converters walk the tree recursively.
    static let maximumDepth = 1_000

    private let feedURL: URL?
    private let capturesMarkup: (XMLNode) -> Bool
    private var stack: [XMLNode] = []
    private var root: XMLNode?
    private var rootClosed = false
    private var failure: FeedParserError?
    /// Depth inside a markup-capturing element (0 = not capturing).
    private var captureDepth = 0
    private var skipsWrapperDiv = false

    private init(feedURL: URL?, capturesMarkup: @escaping (XMLNode) -> Bool) {
        self.feedURL = feedURL
        self.capturesMarkup = capturesMarkup
    }

    /// Parses `bytes` and returns the root element.
    static func parse(
        _ bytes: [UInt8],
        feedURL: URL?,
        capturesMarkup: @escaping (XMLNode) -> Bool = { _ in false }
    ) throws(FeedParserError) -> XMLNode {
        let builder = XMLTreeBuilder(feedURL: feedURL, capturesMarkup: capturesMarkup)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        _ = parser.parse()
        if let error = builder.failure { throw error }
        guard let root = builder.root, builder.rootClosed else {
            let code = (parser.parserError as NSError?)?.code ?? 5  // libxml2 XML_ERR_DOCUMENT_END
            throw .malformedXML(code: code, line: parser.lineNumber, column: parser.columnNumber,
                                message: "document ended before the root element was closed")
        }
        return root
    }

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if stack.count + captureDepth >= Self.maximumDepth {
            if failure == nil {
                failure = .nestingTooDeep(limit: Self.maximumDepth, line: parser.lineNumber,
                                             column: parser.columnNumber)
            }
            parser.abortParsing()
            return
        }
        if captureDepth > 0 {
            captureDepth += 1
            if captureDepth == 2, skipsWrapperDiv {
                // Only a leading <div> is the Atom wrapper; decide on the first child element.
                if elementName == "div" { return }
                skipsWrapperDiv = false
            }
            stack.last?.text += MarkupWriter.startTag(qualifiedName ?? elementName, attributes)
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
        if capturesMarkup(node) {
            captureDepth = 1
            skipsWrapperDiv = true
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName: String?) {
        if captureDepth > 1 {
            defer { captureDepth -= 1 }
            if captureDepth == 2, skipsWrapperDiv, elementName == "div" {
                skipsWrapperDiv = false
                return
            }
            stack.last?.text += "</\(qualifiedName ?? elementName)>"
            return
        }
        captureDepth = 0
        guard let node = stack.popLast() else { return }
        if stack.isEmpty, node === root { rootClosed = true }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard let node = stack.last else { return }
        node.text += captureDepth > 0 ? MarkupWriter.escape(string) : string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        let string = String(decoding: CDATABlock, as: UTF8.self)
        guard let node = stack.last else { return }
        node.text += captureDepth > 0 ? MarkupWriter.escape(string) : string
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil, !rootClosed else { return }
        let code = (parseError as NSError).code
        if Self.isRecoverable(code) { return }
        failure = .malformedXML(code: code, line: parser.lineNumber, column: parser.columnNumber,
                                   message: "XML is not well-formed (libxml2 error \(code))")
    }

    /// libxml2 error codes after which parsing continues with correct results:
    /// namespace errors (200–299) and undeclared entities (26 error, 27 warning).
    private static func isRecoverable(_ code: Int) -> Bool {
        (200..<300).contains(code) || code == 26 || code == 27
    }
}
