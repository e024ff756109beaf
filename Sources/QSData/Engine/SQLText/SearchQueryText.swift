/// Turns what a person typed into an FTS5 query that can never be a syntax error.
///
/// Every whitespace-separated word becomes a quoted phrase (a quote inside it doubled), so FTS5
/// operators (`AND`, `OR`, `NOT`, `NEAR`), column filters (`title:`), `*`, `^`, `+`, `-` and
/// parentheses are searched for as text, never obeyed. The phrases are ANDed: every word must
/// occur; a word with no letter or digit (such as `-` or `"`) is left out, as the tokenizer
/// would drop it anyway. With `matchingPrefixes`, the last word also matches longer words (`"swi"*` finds
/// "swift"), which suits search-as-you-type.
enum SearchQueryText {
    /// The FTS5 query for `text`, or nil when it holds no word to search for.
    static func ftsQuery(for text: String, matchingPrefixes: Bool) -> String? {
        // Control characters (NUL among them) separate words like spaces do.
        let scalars = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }
        let words = String(String.UnicodeScalarView(scalars))
            .split(whereSeparator: \.isWhitespace)
            .filter { $0.contains { $0.isLetter || $0.isNumber } }
        guard !words.isEmpty else { return nil }
        var phrases = words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        if matchingPrefixes { phrases[phrases.count - 1] += "*" }
        return phrases.joined(separator: " ")
    }
}
