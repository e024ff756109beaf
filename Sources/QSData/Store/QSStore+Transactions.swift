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
        try checkOpen()
        if let outer = openBatch {
            try body()  // a nested batch joins the outer one, and shares its outcome
            return outer.ticket
        }
        let ticket = QSWrite(operation: "batch", center: changeCenter)
        openBatch = OpenBatch(ticket: ticket)
        defer { openBatch = nil }
        do {
            try body()
        } catch {
            restoreMemory(changedBy: openBatch?.writes ?? [])
            throw error
        }
        enqueue(openBatch?.writes ?? [], ticket: ticket)
        return ticket
    }

    /// Brings what `writes` changed in memory back to what the database holds, for writes that
    /// will never run. Observers hear the restored instances as updated.
    private func restoreMemory(changedBy writes: [PendingWrite]) {
        let registry = self.registry
        let inbox = changeCenter.inbox
        database.enqueue { connection in
            guard let connection else { return }
            let context = QueueContext(connection: connection, registry: registry)
            let restores = writes.compactMap { write in write.touches?.restoreWork(source: write.source, in: context) }
            inbox.post(.restored(restores))
        }
    }

    /// Runs `work` in a transaction on the queue, or adds it to the open batch.
    ///
    /// - Parameter touches: what the write already changed in memory, put back if it rolls back.
    @discardableResult
    func submitWrite(
        _ operation: String, source: QSChangeSource, touches: MemoryTouches? = nil,
        _ work: @escaping @Sendable (RowWriter, inout QSChange) throws -> (@MainActor @Sendable () -> Void)?
    ) -> QSWrite {
        let write = PendingWrite(
            operation: operation, source: source, work: work, touches: touches,
            ticket: QSWrite(operation: operation, center: changeCenter))
        if openBatch != nil {
            openBatch?.writes.append(write)
        } else {
            enqueue([write], ticket: nil)
        }
        return write.ticket
    }

    private func enqueue(_ writes: [PendingWrite], ticket: QSWrite?) {
        let registry = self.registry
        let inbox = changeCenter.inbox
        let operation = writes.count == 1 ? writes[0].operation : "batch of \(writes.count) writes (\(writes.map(\.operation).joined(separator: "; ")))"
        database.enqueue { connection in
            var failure: QSWriteError?
            var committed: [(QSChange, (@MainActor @Sendable () -> Void)?)] = []
            do {
                guard let connection else { throw QSDataError.storeClosed }
                let writer = RowWriter(connection: connection, registry: registry)
                try connection.transaction {
                    for write in writes {
                        var change = QSChange(source: write.source)
                        let mainActorWork = try write.work(writer, &change)
                        committed.append((change, mainActorWork))
                    }
                }
                for (change, mainActorWork) in committed {
                    inbox.post(.committed(change, mainActorWork: mainActorWork))
                }
            } catch {
                let writeError = QSWriteError(operation: operation, underlying: error)
                failure = writeError
                // The transaction rolled back: what the writes changed in memory goes back to
                // what the database holds.
                var restores: [@MainActor @Sendable () -> QSChange] = []
                if let connection {
                    let context = QueueContext(connection: connection, registry: registry)
                    restores = writes.compactMap { write in write.touches?.restoreWork(source: write.source, in: context) }
                }
                inbox.post(.failed(writeError, writes: writes.map(\.ticket) + (ticket.map { [$0] } ?? []), restores: restores))
            }
            for (index, write) in writes.enumerated() {
                write.ticket.finish(failure, changes: failure == nil ? [committed[index].0] : [])
            }
            ticket?.finish(failure, changes: committed.map(\.0))
            Task { @MainActor [weak self] in self?.changeCenter.deliverFinishedWork() }
        }
    }
}

/// The writes ``QSStore/performBatch(_:)`` is collecting, and the ticket they will share.
struct OpenBatch {
    let ticket: QSWrite
    var writes: [PendingWrite] = []
}

/// A write waiting to be enqueued: what it is, and the work it does in its transaction.
struct PendingWrite {
    let operation: String
    let source: QSChangeSource
    let work: @Sendable (RowWriter, inout QSChange) throws -> (@MainActor @Sendable () -> Void)?
    let touches: MemoryTouches?
    let ticket: QSWrite
}
