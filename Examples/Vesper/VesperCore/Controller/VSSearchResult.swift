/// A note a search found, with the passage that matched (matched words in [brackets]).
public struct VSSearchResult: Sendable {
    public let note: VSTimelineNote
    public let snippet: String
}
