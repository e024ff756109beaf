/// Live queries: results that stay current as the data changes. See <doc:KeepingScreensCurrent>.
extension QSStore {
    /// Fetches a query's results and keeps them current in an `@Observable` object.
    ///
    /// - Statements: the first fetch; then one fetch per burst of committed changes that can
    ///   affect the results, and none for changes to other types.
    /// - Throws: what the first fetch throws, such as an ``SQLiteError`` for a bad condition.
    public func liveQuery<Object: QSDataObject>(_ query: QSQuery<Object>) async throws -> QSLiveQuery<Object> {
        try checkOpen()
        let engine = try LiveQueryEngine(store: self, query: query)
        try await engine.start()
        return QSLiveQuery(engine: engine)
    }

    /// A query's results as an `AsyncSequence` of arrays: the current results, then new ones
    /// after each burst of committed changes that can affect them.
    public func liveResults<Object: QSDataObject>(_ query: QSQuery<Object>) -> QSLiveResults<Object> {
        QSLiveResults(store: self, query: query)
    }

    /// Waits for the queue, then hands every change committed so far to observers (including
    /// live queries), without reporting write failures as ``flush()`` does. While a background
    /// write runs, it waits only for the writes enqueued before it, as a read would.
    func deliverCommittedChanges() async throws {
        if let gate = database.readGate {
            await gate.waitUntilOpen()
        } else {
            try await perform { _ in () }
        }
        changeCenter.deliverFinishedWork()
    }
}
