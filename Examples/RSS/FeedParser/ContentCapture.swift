/// How ``XMLTreeBuilder`` reads the content of one element.
///
/// Most elements become nodes with child nodes. The elements that hold prose do not: their
/// content is read as one string, because feeds put markup in them in every way there is —
/// escaped, in CDATA, or written straight into the XML as child elements.
enum ContentCapture {
    /// Child elements become child nodes; the node's text is its own character data.
    case children
    /// The text content of the element and everything in it, without tags: a title written
    /// `Why <i>Dune</i> matters` reads "Why Dune matters".
    case text
    /// HTML. Text and CDATA are the HTML source as given (escaped markup reads as the markup it
    /// encodes). When child elements appear — HTML written straight into the XML — the whole
    /// content is serialised back to markup instead, its text escaped, so `Hello <b>world</b>`
    /// keeps its bold.
    case html
    /// Atom XHTML: the content serialised back to markup, without the `<div>` that wraps it.
    case xhtml
}

/// The content of one capturing element while the builder reads it.
struct CapturedContent {
    let mode: ContentCapture
    /// How many elements are open, the capturing one included (0 once it has closed).
    private(set) var depth = 1
    private var text = ""
    private var markup = ""
    private var sawElement = false
    /// HTML only: the runs read before the first child element, kept (not copied) so that the
    /// markup is written only for content that turns out to need it.
    private var runsBeforeFirstElement: [(run: String, isCDATA: Bool)] = []
    /// XHTML only: whether the first child element, if it is a `<div>`, is still to be dropped.
    private var skipsWrapperDiv: Bool
    /// Whether the `<div>` being read now is the wrapper.
    private var inWrapperDiv = false

    init(mode: ContentCapture) {
        self.mode = mode
        skipsWrapperDiv = mode == .xhtml
    }

    /// What the element's text is, once it has closed.
    var result: String {
        switch mode {
        case .children, .text: return text
        case .html: return sawElement ? markup : text
        case .xhtml: return markup
        }
    }

    mutating func start(_ name: String, attributes: [String: String]) {
        depth += 1
        if mode == .html, !sawElement {
            markup = runsBeforeFirstElement.map { $0.isCDATA ? $0.run : MarkupWriter.escape($0.run) }.joined()
            runsBeforeFirstElement = []
        }
        sawElement = true
        if depth == 2, skipsWrapperDiv {
            skipsWrapperDiv = false
            if name == "div" {
                inWrapperDiv = true
                return
            }
        }
        if mode == .html || mode == .xhtml { markup += MarkupWriter.startTag(name, attributes) }
    }

    mutating func end(_ name: String) {
        depth -= 1
        guard depth > 0 else { return }
        if depth == 1, inWrapperDiv {
            inWrapperDiv = false
            return
        }
        if mode == .html || mode == .xhtml { markup += MarkupWriter.endTag(name) }
    }

    mutating func characters(_ string: String) {
        text += string
        switch mode {
        case .html where !sawElement: runsBeforeFirstElement.append((string, false))
        case .html, .xhtml: markup += MarkupWriter.escape(string)
        case .children, .text: break
        }
    }

    /// CDATA is HTML source in HTML content, and text everywhere else.
    mutating func cdata(_ string: String) {
        text += string
        switch mode {
        case .html where !sawElement: runsBeforeFirstElement.append((string, true))
        case .html: markup += string
        case .xhtml: markup += MarkupWriter.escape(string)
        case .children, .text: break
        }
    }
}
