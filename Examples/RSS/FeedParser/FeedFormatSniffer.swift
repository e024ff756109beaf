import Foundation

/// Recognises the format of a document from its first bytes.
enum FeedFormatSniffer {
    /// `true` when the first non-whitespace byte (after a UTF-8 BOM) is `{`.
    static func looksLikeJSON(_ data: Data) -> Bool {
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        let first = body.prefix(4096).first { !(0x09...0x0D).contains($0) && $0 != 0x20 }
        return first == UInt8(ascii: "{")
    }

    /// The format named by the root element of normalized XML bytes
    /// (`rss`, `rdf:RDF`, `feed`, `opml`), skipping the XML declaration,
    /// processing instructions, comments and a DOCTYPE.
    static func xmlFormat(_ bytes: [UInt8]) -> FeedFormat? {
        guard let name = rootElementName(bytes) else { return nil }
        let local = name.split(separator: ":").last.map { $0.lowercased() } ?? ""
        switch local {
        case "rss": return .rss
        case "rdf": return .rdf
        case "feed": return .atom
        case "opml": return .opml
        default: return nil
        }
    }

    /// The qualified name of the first element.
    static func rootElementName(_ bytes: [UInt8]) -> String? {
        let less = UInt8(ascii: "<")
        var index = 0
        while index < bytes.count {
            guard bytes[index] == less else { index += 1; continue }
            let rest = bytes[(index + 1)...]
            if rest.starts(with: Array("?".utf8)) {
                index = skip(past: "?>", in: bytes, from: index)
            } else if rest.starts(with: Array("!--".utf8)) {
                index = skip(past: "-->", in: bytes, from: index)
            } else if rest.starts(with: Array("!".utf8)) {
                index = skipDeclaration(in: bytes, from: index)
            } else {
                let nameBytes = rest.prefix { byte in
                    !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                      || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/"))
                }
                return nameBytes.isEmpty ? nil : String(decoding: nameBytes, as: UTF8.self)
            }
        }
        return nil
    }

    private static func skip(past terminator: String, in bytes: [UInt8], from start: Int) -> Int {
        let pattern = Array(terminator.utf8)
        var index = start + 1
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index + pattern.count
            }
            index += 1
        }
        return bytes.count
    }

    /// Skips `<!DOCTYPE …>`, including an internal subset in brackets.
    private static func skipDeclaration(in bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        var bracketDepth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "["): bracketDepth += 1
            case UInt8(ascii: "]"): bracketDepth -= 1
            case UInt8(ascii: ">") where bracketDepth <= 0: return index + 1
            default: break
            }
            index += 1
        }
        return bytes.count
    }
}
