/// Serializes captured XHTML back to markup text.
enum MarkupWriter {
    /// `<name a="v">` with attribute values escaped. Attributes are sorted so
    /// the output is deterministic.
    static func startTag(_ name: String, _ attributes: [String: String]) -> String {
        var tag = "<" + name
        for key in attributes.keys.sorted() where !key.hasPrefix("xmlns") {
            tag += " \(key)=\"\(escape(attributes[key] ?? "", quotes: true))\""
        }
        return tag + ">"
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
