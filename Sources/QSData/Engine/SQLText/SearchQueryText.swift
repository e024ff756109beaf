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
        let words = text.split(whereSeparator: separatesWords).filter { $0.contains { $0.isLetter || $0.isNumber } }
        guard !words.isEmpty else { return nil }
        var phrases = words.map { enclosed($0, in: "\"") }
        if matchingPrefixes { phrases[phrases.count - 1] += "*" }
        return phrases.joined(separator: " ")
    }

    /// Whitespace, and control characters (NUL among them), which separate words as spaces do.
    private static func separatesWords(_ character: Character) -> Bool {
        // ASCII's whitespace and control characters are all the codes up to the space, and DEL.
        if let ascii = character.asciiValue { return ascii <= 0x20 || ascii == 0x7F }
        return character.isWhitespace || character.unicodeScalars.first?.properties.generalCategory == .control
    }
}
