/// Serializes captured markup back to text.
enum MarkupWriter {
    /// HTML's void elements: they have no end tag, and `</br>` would read as a second `<br>`.
    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]

    /// `<name a="v">` with attribute values escaped. Attributes are sorted so
    /// the output is deterministic.
    static func startTag(_ name: String, _ attributes: [String: String]) -> String {
        var tag = "<" + name
        for key in attributes.keys.sorted() where !key.hasPrefix("xmlns") {
            tag += " \(key)=\"\(escape(attributes[key] ?? "", quotes: true))\""
        }
        return tag + ">"
    }

    /// `</name>`, or nothing for a void element.
    static func endTag(_ name: String) -> String {
        voidElements.contains(name.lowercased()) ? "" : "</\(name)>"
    }

    /// Escapes `&`, `<`, `>` (and `"` when `quotes`).
    static func escape(_ text: String, quotes: Bool = false) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || (quotes && $0 == "\"") }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
