import Foundation

/// The text a person reads in a piece of HTML: the tags of HTML's elements removed (with the
/// contents of `script` and `style` elements, which are never shown), character references
/// decoded. Titles are read this way, since feeds write markup into them however their format
/// says they should. Anything else in angle brackets (`Q&A <weekly>`) is text, and stays.
enum HTMLText {
    /// The elements whose tags are markup, not words.
    private static let elementNames: Set<String> = [
        "a", "abbr", "acronym", "address", "article", "aside", "b", "bdi", "bdo", "big", "blink", "blockquote",
        "br", "caption", "center", "cite", "code", "data", "del", "dfn", "div", "em", "figcaption", "figure",
        "font", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "ins", "kbd", "li",
        "mark", "nobr", "ol", "p", "pre", "q", "rp", "rt", "ruby", "s", "samp", "script", "section", "small",
        "span", "strike", "strong", "style", "sub", "sup", "time", "tt", "u", "ul", "var", "wbr",
    ]

    static func plainText(_ html: String) -> String {
        guard html.contains("<") else { return HTMLEntityDecoder.decode(html) }
        var text = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open]
            let tag = rest[rest.index(after: open)...]
            let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
            let isComment = tag.hasPrefix("!--")
            guard isComment || elementNames.contains(name), let close = tag.firstIndex(of: ">") else {
                text += "<"
                rest = tag
                continue
            }
            rest = tag[tag.index(after: close)...]
            if name == "br" { text += " " }  // a line break between two words still parts them
            if (name == "script" || name == "style"), !tag.hasPrefix("/") {
                let end = rest.range(of: "</\(name)", options: .caseInsensitive)
                let endClose = end.flatMap { rest[$0.upperBound...].firstIndex(of: ">") }
                rest = endClose.map { rest[rest.index(after: $0)...] } ?? ""
            }
        }
        text += rest
        return HTMLEntityDecoder.decode(text)
    }
}
