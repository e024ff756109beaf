/// Background writes: long writes that reads need not wait for.
extension QSStore {
    /// Commits every write `body` makes in one transaction, as ``performBatch(_:)`` does, but in
    /// the background: fetches, counts, searches and live-query updates issued while it runs do
    /// not wait for it. They run on a reader connection and see the last committed state: every
    /// write enqueued before this one, and none of this one until it commits. Then observers and
    /// live queries hear of it, as of any write.
    ///
    /// For imports, refreshes and sync runs: the work the user is not looking at.
    /// ```swift
    /// let write = try store.performInBackground {
    ///     try store.save(feed)
    ///     try store.save(articles)                 // 100,000 rows: seconds of writing
    /// }
    /// let unread = try await store.fetch(Article.self, where: "read = 0", limit: 200)  // at once
    /// try await write.committed()
    /// ```
    ///
    /// What reads wait for: a read waits for every ordinary (foreground) write enqueued before it,
    /// as always. So when a foreground write is enqueued after a background write that is still
    /// running, reads issued after it wait for both, until no background write is left. Instances
    /// the app holds stay one per row: a read's older snapshot never replaces an instance in
    /// memory, which already shows what the app saved.
    ///
    /// As for ``performBatch(_:)``, the transaction holds the database's write lock from the
    /// first write until `body` returns, so make the objects first and save them in `body`.
    ///
    /// Inside a ``performBatch(_:)``, the writes join that batch (a foreground one).
    /// If `body` throws, nothing is written, and the instances its writes changed in memory are
    /// brought back, as for a batch.
    @discardableResult
    public func performInBackground(_ body: () throws -> Void) throws -> QSWrite {
        try beginWrite()
        if let outer = openBatch {
            try body()
            return outer.ticket
        }
        let ticket = QSWrite(operation: "background batch", center: changeCenter)
        database.beginBackgroundWrite()
        try runBatch(body, ticket: ticket, inBackground: true)
        return ticket
    }

    /// The number of reader connections the store has opened: none until a read runs during a
    /// background write, and at most ``QSStoreOptions/readerCount``.
    public var openReaderCount: Int { readers.openedCount }
}
