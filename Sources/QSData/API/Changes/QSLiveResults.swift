/// A query's results as an `AsyncSequence`: the current results first, then the new results
/// after each committed change that can affect them.
///
/// Iterate it on the main actor, where model objects live. If the loop falls behind, it gets
/// the newest results, not every intermediate one. The sequence ends when the store closes;
/// leaving the loop or cancelling its task stops the query. A failed re-fetch is thrown.
/// ```swift
/// for try await notes in store.liveResults(QSQuery(Note.self, orderBy: "sortDate DESC")) {
///     render(notes)
/// }
/// ```
public struct QSLiveResults<Object: QSDataObject>: @MainActor AsyncSequence {
    public typealias Element = [Object]
    public typealias Failure = any Error

    let store: QSStore
    let query: QSQuery<Object>

    @MainActor
    public func makeAsyncIterator() -> Iterator {
        Iterator(buffer: LiveResultsBuffer(store: store, query: query))
    }

    public struct Iterator: @MainActor AsyncIteratorProtocol {
        public typealias Element = [Object]
        public typealias Failure = any Error

        let buffer: LiveResultsBuffer<Object>

        @MainActor
        public mutating func next() async throws -> [Object]? {
            try await buffer.next()
        }
    }
}
