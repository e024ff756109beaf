import Foundation

/// An article a search found, with the passage that matched (matched words in [brackets]).
@MainActor
public struct RSSSearchResult {
    public let article: ArticleSummary
    /// The passage as indexed: it may hold HTML from the article's content.
    public let snippet: String

    /// The passage as readable text on one line: tags (and tags cut off at either end) removed,
    /// entities decoded, whitespace collapsed.
    public var plainSnippet: String {
        var text = snippet.replacingOccurrences(of: "^[^<]*?>", with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]*$", with: "", options: .regularExpression)
        return HTMLText.plainText(fromHTML: text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
