/// One object a full-text search found, with how well it matched and, when asked for, the
/// passage that matched.
public struct QSSearchResult<Object: QSDataObject> {
    /// The object: the same instance every other fetch returns, for uniqued and cached types.
    public let object: Object
    /// The matching passage with the matched words marked (see ``QSSnippetStyle``); nil unless
    /// the search asked for snippets.
    public let snippet: String?
    /// The `bm25` score: lower is a better match. Results come best first.
    public let score: Double
}

extension QSSearchResult: Sendable where Object: Sendable {}

/// How a search marks the matched words in the snippet it returns with each result.
/// ```swift
/// let style = QSSnippetStyle(before: "**", after: "**", maxTokens: 8)
/// ```
public struct QSSnippetStyle: Sendable, Equatable {
    /// The indexed property to take the passage from; nil lets FTS5 pick the best one.
    public var column: String?
    /// Put before each matched word.
    public var before: String
    /// Put after each matched word.
    public var after: String
    /// Put where the passage is cut off.
    public var ellipsis: String
    /// The passage's length in words (FTS5 allows 1 to 64).
    public var maxTokens: Int

    public init(column: String? = nil, before: String = "[", after: String = "]", ellipsis: String = "…", maxTokens: Int = 12) {
        self.column = column
        self.before = before
        self.after = after
        self.ellipsis = ellipsis
        self.maxTokens = maxTokens
    }
}
