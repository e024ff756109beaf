/// How writes reach the database: each in its own transaction, or several together in a batch.
extension QSStore {
    /// Commits every write `body` makes in one transaction: all of them or none.
    ///
    /// Inside `body`, call the store's write methods as usual; they are collected instead of
    /// enqueued one by one. If any fails on the queue, the whole batch rolls back. If `body`
    /// throws, nothing is written. Either way the instances the batch's writes had changed in
    /// memory are brought back to what the database holds (observers hear them as updated).
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
        if let outer = collectedBatch {
            try body()  // a nested batch joins the outer one, and shares its outcome
            return outer.ticket
        }
        let ticket = QSWrite(operation: "batch", center: changeCenter)
        enqueue(try collectWrites(of: body, ticket: ticket), ticket: ticket)
        return ticket
    }

    /// The writes `body` makes, collected instead of enqueued. When `body` throws, what the
    /// writes made so far changed in memory is brought back, and the error thrown on.
    func collectWrites(of body: () throws -> Void, ticket: QSWrite) throws -> [PendingWrite] {
        collectedBatch = CollectedBatch(ticket: ticket)
        defer { collectedBatch = nil }
        do {
            try body()
        } catch {
            let writes = collectedBatch?.writes ?? []
            // A large save in the batch has chunks still to encode in later turns: none will be.
            for write in writes { write.largeSave?.cancelEncoding() }
            restoreMemory(touchedBy: writes.map { ($0.touches, $0.source) })
            throw error
        }
        return collectedBatch?.writes ?? []
    }

    /// Brings what writes changed in memory back to what the database holds, for writes that
    /// will never run. Observers hear the restored instances as updated.
    func restoreMemory(touchedBy writes: [(touches: MemoryTouches?, source: QSChangeSource)]) {
        let registry = self.registry
        let finishedWrites = changeCenter.finishedWrites
        changeCenter.writeHandedOver()
        database.enqueue { state in
            defer { finishedWrites.post(.settled) }
            guard let state else { return }
            state.withReadAdoptionsTaken {
                let context = QueueContext(state: state, registry: registry)
                let restores = MemoryTouches.restoreWork(for: writes, in: context)
                finishedWrites.post(.restored(restores))
            }
        }
    }

    /// Runs `work` in a transaction on the queue, or adds it to the open batch.
    ///
    /// - Parameters:
    ///   - touches: what the write already changed in memory, put back if it rolls back.
    ///   - largeSave: a large save's encoding, stopped before `touches` are read if the write fails.
    @discardableResult
    func submitWrite(
        _ operation: String, source: QSChangeSource, touches: MemoryTouches? = nil, largeSave: LargeSaveEncoding? = nil,
        _ work: @escaping @Sendable (RowWriter, inout QSChange) throws -> AfterCommitWork?
    ) -> QSWrite {
        let write = PendingWrite(
            operation: operation, source: source, work: work, touches: touches,
            ticket: QSWrite(operation: operation, center: changeCenter), largeSave: largeSave)
        if collectedBatch != nil {
            collectedBatch?.writes.append(write)
        } else {
            enqueue([write], ticket: nil)
        }
        return write.ticket
    }

    /// Enqueues `writes` as one transaction; a background one lets reads pass it (see
    /// ``performInBackground(_:)``), and ends the background write once it has run.
    func enqueue(_ writes: [PendingWrite], ticket: QSWrite?, inBackground: Bool = false) {
        var transaction = WriteTransaction(writes: writes, ticket: ticket, registry: registry, finishedWrites: changeCenter.finishedWrites)
        changeCenter.writeHandedOver()
        func work(_ transaction: WriteTransaction) -> @Sendable (QueueState?) -> Void {
            { [weak self] state in
                transaction.run(on: state)
                Task { @MainActor in
                    if inBackground { self?.database.endBackgroundWrite() }
                    self?.changeCenter.deliverFinishedWork()
                }
            }
        }
        guard inBackground else { return database.enqueue(work(transaction)) }
        database.enqueueBackgroundWrite(touches: writes.compactMap(\.touches)) { ended in
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
