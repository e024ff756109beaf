/// How writes reach the database: each in its own transaction, or several together in a batch.
extension QSStore {
    /// Commits every write `body` makes in one transaction: all of them or none.
    ///
    /// Inside `body`, call the store's write methods as usual; they join the batch's transaction
    /// instead of each having its own. The database queue begins that transaction at the first
    /// write, runs each write while `body` goes on making the next, and commits once `body`
    /// returns. If any write fails on the queue, the whole batch rolls back. If `body` throws,
    /// nothing is written. Either way the instances the batch's writes had changed in memory are
    /// brought back to what the database holds (observers hear them as updated).
    ///
    /// When `body` throws, the writes the queue had run by then roll back with the rest, but the
    /// `alongside:` closures and raw-SQL writes among them have run: what they did outside the
    /// database stays. A failure of one of the batch's writes before `body` threw is not reported
    /// to the error observers or to ``flush()``: the call rethrows `body`'s error, and only the
    /// tickets of the batch's writes, when awaited, throw a ``QSWriteError``.
    ///
    /// The transaction holds the database's write lock from the batch's first write until `body`
    /// returns: other connections' writes (another process, an extension) wait meanwhile. Do slow
    /// work, such as parsing or the network, before the batch rather than inside it.
    /// ```swift
    /// try store.performBatch {
    ///     try store.save(feed)
    ///     try store.save(articles)
    ///     try store.delete(Article.self, ids: vanished)
    /// }
    /// ```
    @discardableResult
    public func performBatch(_ body: () throws -> Void) throws -> QSWrite {
        try beginWrite()
        if let outer = openBatch {
            try body()  // a nested batch joins the outer one, and shares its outcome
            return outer.ticket
        }
        let ticket = QSWrite(operation: "batch", center: changeCenter)
        try runBatch(body, ticket: ticket, inBackground: false)
        return ticket
    }

    /// Runs `body` as a batch: its writes join one transaction, enqueued now, which the queue runs
    /// as they come (see ``WriteStream``). When `body` throws, the transaction rolls back, what
    /// the writes made so far changed in memory is brought back, and the error is thrown on.
    func runBatch(_ body: () throws -> Void, ticket: QSWrite, inBackground: Bool) throws {
        let stream = WriteStream()
        let changedRows = enqueue(WriteTransaction(writes: [], stream: stream, ticket: ticket, registry: registry,
                                                   finishedWrites: changeCenter.finishedWrites), inBackground: inBackground)
        openBatch = OpenBatch(ticket: ticket, stream: stream, registry: registry, changedRows: changedRows)
        defer { openBatch = nil }
        do {
            try body()
        } catch {
            // A large save in the batch has chunks still to encode in later turns: none will be.
            for encoding in openBatch?.largeSaves ?? [] { encoding.cancelEncoding() }
            stream.abandon()
            throw error
        }
        stream.close()
    }

    /// Runs `work` in a transaction on the queue, or adds it to the open batch.
    ///
    /// - Parameters:
    ///   - touches: what the write already changed in memory, put back if it rolls back.
    ///   - largeSave: a large save's encoding, stopped before `touches` are read if the write fails.
    ///   - marksTakenBy: the stamp of the save whose change marks the write writes, if any.
    @discardableResult
    func submitWrite(
        _ operation: String, source: QSChangeSource, touches: MemoryTouches? = nil, largeSave: LargeSaveEncoding? = nil,
        marksTakenBy: UInt64? = nil, _ work: @escaping @Sendable (RowWriter, inout QSChange) throws -> AfterCommitWork?
    ) -> QSWrite {
        let write = PendingWrite(
            operation: operation, source: source, work: work, touches: touches,
            ticket: QSWrite(operation: operation, center: changeCenter), largeSave: largeSave, marksTakenBy: marksTakenBy)
        if openBatch != nil {
            openBatch?.add(write)
        } else {
            enqueue([write], ticket: nil)
        }
        return write.ticket
    }

    /// Enqueues `writes` as one transaction of their own.
    func enqueue(_ writes: [PendingWrite], ticket: QSWrite?) {
        enqueue(WriteTransaction(writes: writes, ticket: ticket, registry: registry, finishedWrites: changeCenter.finishedWrites),
                inBackground: false)
    }

    /// Enqueues `transaction`; a background one lets reads pass it (see ``performInBackground(_:)``),
    /// and ends the background write once it has run. For a background write, returns where to
    /// note the rows its writes change in memory.
    @discardableResult
    private func enqueue(_ transaction: WriteTransaction, inBackground: Bool) -> RowsChangedInBackground? {
        var transaction = transaction
        changeCenter.writeHandedOver()
        func work(_ transaction: WriteTransaction) -> @Sendable (QueueState?) -> Void {
            { [weak self] state in
                transaction.run(on: state) {
                    Task { @MainActor in
                        if inBackground { self?.database.endBackgroundWrite() }
                        self?.changeCenter.deliverFinishedWork()
                    }
                }
            }
        }
        guard inBackground else {
            database.enqueue(work(transaction))
            return nil
        }
        return database.enqueueBackgroundWrite { ended in
            transaction.whenEnding = { state in
                // A long write grows the log far past its usual size: cut back at once, rather
                // than at the next write, which may be a long time coming. Reads meanwhile still
                // go to readers.
                state?.connection.truncateWriteAheadLog(ifLargerThan: state?.walSizeLimit ?? 0)
                ended()
            }
            return work(transaction)
        }
    }
}
