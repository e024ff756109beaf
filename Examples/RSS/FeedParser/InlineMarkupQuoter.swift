import Foundation

/// Puts HTML written straight into a feed's prose elements into CDATA sections, so that the XML
/// parser reads it as the text it is rather than as elements.
///
/// Feeds write HTML into `description`, `content:encoded`, `summary`, `content` and even `title`
/// without escaping it, and that HTML is rarely well-formed XML: one `<br>` or unclosed `<p>`
/// makes the XML parser nest everything after it inside the description, losing every later
/// item. Quoted, the element's content reaches the parser as one run of text — the HTML exactly
/// as written, entities and nesting kept — which is what a reader shows.
///
/// Only elements whose content holds a tag are touched, and CDATA sections already in it are kept
/// as they are (the runs between them are quoted), so the content stays one run of text. XML
/// meant to be parsed is left to the parser (Atom's `type="xhtml"`, any other XML
/// type, Atom 0.3's `mode="xml"`) and an element whose end tag never comes (a cut-off document).
enum InlineMarkupQuoter {
    /// Local names of the prose elements, whatever their prefix.
    private static let proseNames = ["title", "description", "summary", "encoded", "subtitle", "tagline"].map { Array($0.utf8) }
    /// `content` holds prose in Atom only; Media RSS's `media:content` holds elements to read.
    private static let content = Array("content".utf8)
    private static let contentPrefixes = [[], Array("atom".utf8)]

    private static let cdataOpen = Array("<![CDATA[".utf8)
    private static let cdataClose = Array("]]>".utf8)

    /// The quoted bytes, or nil when no element needed it.
    static func quoting(_ bytes: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        var copiedUpTo = 0
        var index = 0
        while let open = firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index) {
            guard let tag = StartTag(in: bytes, at: open) else {
                index = skipMarkup(in: bytes, at: open)
                continue
            }
            index = tag.end
            guard isProse(tag), !tag.isSelfClosing, !tag.holdsXML,
                  let close = closingTag(named: tag.name, in: bytes, from: tag.end) else { continue }
            let pieces = Piece.split(bytes[tag.end..<close])
            guard pieces.contains(where: { !$0.isCDATA && holdsTag($0.bytes) }) else { continue }
            if output.isEmpty { output.reserveCapacity(bytes.count + 64) }
            output += bytes[copiedUpTo..<tag.end]
            for piece in pieces {
                if piece.isCDATA {
                    output += piece.bytes
                } else {
                    output += cdataOpen
                    output += escapingCDATAEnds(piece.bytes)
                    output += cdataClose
                }
            }
            copiedUpTo = close
            index = close
        }
        guard copiedUpTo > 0 else { return nil }
        output += bytes[copiedUpTo...]
        return output
    }

    /// A start tag: its name, where its attributes are, and where it ends.
    private struct StartTag {
        let name: ArraySlice<UInt8>
        let attributes: ArraySlice<UInt8>
        let end: Int
        let isSelfClosing: Bool

        init?(in bytes: [UInt8], at open: Int) {
            var index = open + 1
            guard index < bytes.count, InlineMarkupQuoter.isNameStart(bytes[index]) else { return nil }
            while index < bytes.count, InlineMarkupQuoter.isNameByte(bytes[index]) { index += 1 }
            name = bytes[(open + 1)..<index]
            let attributesStart = index
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                index += 1
            }
            guard index < bytes.count else { return nil }
            attributes = bytes[attributesStart..<index]
            end = index + 1
            isSelfClosing = bytes[index - 1] == UInt8(ascii: "/")
        }

        /// `type="xhtml"` or another XML type, or Atom 0.3's `mode="xml"`: content to parse.
        var holdsXML: Bool {
            guard !attributes.isEmpty else { return false }
            let text = String(decoding: attributes, as: UTF8.self).lowercased().replacingOccurrences(of: "'", with: "\"")
            return text.contains("mode=\"xml\"") || text.range(of: #"type="[^"]*(xml|xhtml)[^"]*""#, options: .regularExpression) != nil
        }
    }

    /// A run of an element's content: a CDATA section (with its markers), or what lies between.
    private struct Piece {
        let bytes: ArraySlice<UInt8>
        let isCDATA: Bool

        static func split(_ content: ArraySlice<UInt8>) -> [Piece] {
            var pieces: [Piece] = []
            var start = content.startIndex
            var index = content.startIndex
            while let open = content[index...].firstIndex(of: UInt8(ascii: "<")) {
                guard matches(cdataOpen, in: content, at: open) else {
                    index = open + 1
                    continue
                }
                let end = firstIndex(of: cdataClose, in: content, from: open + cdataOpen.count).map { $0 + cdataClose.count }
                    ?? content.endIndex
                if start < open { pieces.append(Piece(bytes: content[start..<open], isCDATA: false)) }
                pieces.append(Piece(bytes: content[open..<end], isCDATA: true))
                start = end
                index = end
            }
            if start < content.endIndex { pieces.append(Piece(bytes: content[start..<content.endIndex], isCDATA: false)) }
            return pieces
        }
    }

    private static func isProse(_ tag: StartTag) -> Bool {
        let colon = tag.name.lastIndex(of: UInt8(ascii: ":"))
        let local = colon.map { tag.name[($0 + 1)...] } ?? tag.name
        let prefix = colon.map { tag.name[..<$0] } ?? []
        if proseNames.contains(where: { local.elementsEqual($0) }) { return true }
        return local.elementsEqual(content) && contentPrefixes.contains(where: { prefix.elementsEqual($0) })
    }

    /// The index of `</name>` (white space allowed before `>`) after `start`; nil when another
    /// `<name` start tag or the end of the document comes first. Stopping at the next start tag
    /// of the same name keeps the search linear in a document whose end tags are missing.
    private static func closingTag(named name: ArraySlice<UInt8>, in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while let open = firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index) {
            let isEnd = open + 1 < bytes.count && bytes[open + 1] == UInt8(ascii: "/")
            let nameStart = open + (isEnd ? 2 : 1)
            let nameEnd = nameStart + name.count
            if nameEnd < bytes.count, bytes[nameStart..<nameEnd].elementsEqual(name), !isNameByte(bytes[nameEnd]) {
                guard isEnd else { return nil }
                var after = nameEnd
                while after < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[after]) { after += 1 }
                if after < bytes.count, bytes[after] == UInt8(ascii: ">") { return open }
            }
            index = open + 1
        }
        return nil
    }

    /// Whether the content has a tag: `<` before a letter, `/` or `!`.
    private static func holdsTag(_ content: ArraySlice<UInt8>) -> Bool {
        var index = content.startIndex
        while index + 1 < content.endIndex {
            if content[index] == UInt8(ascii: "<") {
                let next = content[index + 1]
                if isNameStart(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") { return true }
            }
            index += 1
        }
        return false
    }

    /// A `]]>` inside the content would end the CDATA section: it is split across two.
    private static func escapingCDATAEnds(_ content: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard var found = firstIndex(of: cdataClose, in: content, from: content.startIndex) else { return content }
        var output: [UInt8] = []
        var start = content.startIndex
        while true {
            output += content[start..<found]
            output += Array("]]]]><![CDATA[>".utf8)
            start = found + cdataClose.count
            guard let next = firstIndex(of: cdataClose, in: content, from: start) else { break }
            found = next
        }
        output += content[start...]
        return output[...]
    }

    /// Past a comment or a CDATA section at `open`, or just past the `<` of anything else.
    private static func skipMarkup(in bytes: [UInt8], at open: Int) -> Int {
        let all = bytes[...]
        if matches(Array("<!--".utf8), in: all, at: open) {
            return firstIndex(of: Array("-->".utf8), in: all, from: open + 4).map { $0 + 3 } ?? bytes.count
        }
        if matches(cdataOpen, in: all, at: open) {
            return firstIndex(of: cdataClose, in: all, from: open + cdataOpen.count).map { $0 + cdataClose.count } ?? bytes.count
        }
        return open + 1
    }

    /// Whether `pattern` stands in `bytes` at `index`.
    private static func matches(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>, at index: Int) -> Bool {
        guard index + pattern.count <= bytes.endIndex else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    /// Where `pattern` first stands in `bytes` at or after `start`.
    private static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.endIndex, let candidate = bytes[index...].firstIndex(of: pattern[0]) {
            if matches(pattern, in: bytes, at: candidate) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    private static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes[start...].firstIndex(of: byte)
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }
}
