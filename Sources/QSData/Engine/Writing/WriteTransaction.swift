/// The writes that commit together in one transaction on the database queue, all or none, and
/// what their outcome tells the main actor: changes to deliver once committed, or the error and
/// the work that brings the instances back to what the database holds once rolled back.
struct WriteTransaction: Sendable {
    /// The writes known when the transaction is enqueued.
    let writes: [PendingWrite]
    /// A batch's writes, which arrive while the batch's body runs on the main actor: the
    /// transaction takes them after `writes`, until the body ends.
    var stream: WriteStream? = nil
    /// The batch's own ticket, for the writes of a batch; nil for a single write.
    let ticket: QSWrite?
    let registry: TypeRegistry
    let finishedWrites: FinishedWrites
    /// Runs on the queue once the transaction has ended and its outcome is posted, before its
    /// tickets hear of it (a background write cuts the log back, then tells reads to use the queue
    /// again).
    var whenEnding: @Sendable (QueueState?) -> Void = { _ in }

    /// Database queue: runs the writes in one transaction (`state` is nil once the store
    /// is closed: the writes then fail) and posts the outcome to `finishedWrites`, then calls
    /// `posted`. The writes are let go only after that: freeing the rows of thousands of writes
    /// takes a while, which the main actor can spend taking in the outcome meanwhile.
    func run(on state: QueueState?, thenPosted posted: () -> Void) {
        let open: OpenTransaction = begin(on: state)
        defer { withExtendedLifetime(open) {} }
        defer { posted() }
        finish(open, on: state, abandoned: stream?.wasAbandoned ?? false)
    }

    /// Database queue: begins the transaction and runs the writes, leaving it open for
    /// ``finish(on:abandoned:)``, which the main actor enqueues right behind (so nothing else
    /// runs in between). Used by a bulk update, whose `UPDATE` runs here while the main actor
    /// patches the instances.
    func begin(on state: QueueState?) {
        state?.openTransaction = begin(on: state)
    }

    /// Database queue: ends the transaction ``begin(on:)`` left open: commits it, or, when
    /// `abandoned` (an instance refused the new values, and the call that made the write has
    /// thrown that already), rolls it back without reporting it again.
    func finish(on state: QueueState?, abandoned: Bool) {
        let open = state?.openTransaction ?? OpenTransaction(writer: nil, writes: writes, failure: QSDataError.storeClosed)
        state?.openTransaction = nil
        finish(open, on: state, abandoned: abandoned)
    }

    private func begin(on state: QueueState?) -> OpenTransaction {
        guard let state else {
            let open = OpenTransaction(writer: nil, writes: writes, failure: QSDataError.storeClosed)
            open.writes += stream?.rest().map(\.write) ?? []
            return open
        }
        let writer = RowWriter(state: state, registry: registry)
        let open = OpenTransaction(writer: writer, writes: writes)
        let connection = state.connection
        // A batch's transaction begins once its first write has come: the write lock is not held
        // while the body has made none yet. (A transaction has either writes or a stream.)
        var streamed = ArraySlice(writes.isEmpty ? stream?.next() ?? [] : [])
        if writes.isEmpty, stream != nil, streamed.isEmpty {
            // The body ended without a write, or threw before the queue took its first: nothing
            // is begun (no write lock taken for nothing), and the writes a throwing body made are
            // answered and put back.
            open.neverBegan = true
            for entry in stream?.rest() ?? [] { take(entry, into: open, on: state) }
            return open
        }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            open.watchQuiet = state.fileWatcher?.quietDuringOwnWrite()
            state.changeLog?.appSQLRan = false
            // Holding the write lock now: the entries other connections committed are read
            // first, so that the store's own entries follow theirs. The rows they name are read
            // once the writes below are done: a save the app encoded before the store knew of
            // those commits compares with what the store knew then, and so writes only what the
            // app changed, and the instances are patched to the rows as the transaction leaves them.
            open.positionAtBegin = state.changeLog?.position
            open.outsideEntries = try state.outsideChanges?.entriesOfOtherConnections(state)
            open.positionBeforeAppSQL = state.changeLog?.position
            state.snapshotTrust.noticeChanges(on: connection)
            for write in writes { try run(write, writer: writer, into: open) }
            repeat {
                while let entry = streamed.popFirst() {
                    take(entry, into: open, on: state)
                    try run(entry.write, writer: writer, into: open)
                }
                streamed = ArraySlice(stream?.next() ?? [])
            } while !streamed.isEmpty
        } catch {
            // Rolled back by `finish`, which comes next: until then the transaction holds the
            // file as it would have had the statement succeeded.
            open.failure = error
        }
        // After a failure, or a body that threw, the batch's writes still to come are not run,
        // but are answered and put back with the others.
        for entry in streamed + (stream?.rest() ?? []) { take(entry, into: open, on: state) }
        return open
    }

    /// A batch's write arrives: the queue's tables first follow what the main actor noted before
    /// it, and the transaction counts it among its writes.
    private func take(_ entry: WriteStream.Entry, into open: OpenTransaction, on state: QueueState) {
        if let notes = entry.notesBefore { registry.apply(notes, to: state) }
        open.writes.append(entry.write)
    }

    private func run(_ write: PendingWrite, writer: RowWriter, into open: OpenTransaction) throws {
        var change = QSChange(source: write.source)
        let afterCommit = try write.work(writer, &change)
        open.committed.append((change, write.operation, afterCommit))
    }

    private func finish(_ open: OpenTransaction, on state: QueueState?, abandoned: Bool) {
        guard let state, state.changeLog?.appSQLRan == true || open.outsideEntries != nil else {
            return finishPosting(open, on: state, abandoned: abandoned)
        }
        // Other connections' rows and the app's SQL in the transaction are read back for the
        // instances held, including those reads on readers made while it ran.
        state.withReadAdoptionsTaken { finishPosting(open, on: state, abandoned: abandoned) }
    }

    private func finishPosting(_ open: OpenTransaction, on state: QueueState?, abandoned: Bool) {
        if open.neverBegan {
            if abandoned { open.failure = WriteAbandoned() }
        } else if let state {
            if open.failure == nil {
                let firstRead = state.replacedSnapshots.lastRead + 1
                do {
                    guard !abandoned else { throw WriteAbandoned() }
                    let outsideChanges = try open.outsideEntries.flatMap {
                        try state.outsideChanges?.rereadRows(named: $0, state, origin: .otherConnection, tracker: open.writer?.tracker)
                    }
                    let appSQLChanges = try readAppSQLChanges(state, open: open)
                    try state.changeLog?.writeEntries(for: open.committed.map(\.change), on: state.connection)
                    if let hook = state.commitHook {
                        try hook(QSCommittingTransaction(
                            connection: state.connection, source: source(of: open.writes), rowsInsertedAgain: open.writer?.tracker.rowsInsertedAgain ?? [:]))
                    }
                    try state.connection.execute("COMMIT")
                    state.changeLog?.didCommit()
                    open.outsideChanges = outsideChanges?.item()
                    open.appSQLChanges = appSQLChanges?.item()
                } catch {
                    open.failure = error
                    state.replacedSnapshots.forgetReads(from: firstRead)
                    rollBack(state, open: open)
                }
            } else {
                rollBack(state, open: open)
            }
        }
        open.watchQuiet?.end()
        guard let underlying = open.failure else {
            // (With nothing begun, the file's changes since the last look are not the store's.)
            if let state, !open.neverBegan { state.snapshotTrust.explainCommit(on: state.connection) }
            // Other connections committed before this transaction began: heard first.
            if let outsideChanges = open.outsideChanges { finishedWrites.post(outsideChanges) }
            for (change, operation, afterCommit) in open.committed {
                finishedWrites.post(.committed(change, operation: operation, afterCommit: afterCommit))
            }
            if let stamp = open.writes.lazy.compactMap(\.marksTakenBy).max() {
                finishedWrites.post(.marksWritten(upTo: stamp))
            }
            if let appSQLChanges = open.appSQLChanges { finishedWrites.post(appSQLChanges) }
            finishedWrites.post(.settled)
            whenEnding(state)
            finishTickets(of: open.writes, failure: nil, committed: open.committed.map(\.change))
            return
        }
        let writes = open.writes
        open.writer?.tracker.forgetTouched()
        for write in writes { write.largeSave?.stopEncoding() }
        let failure = QSWriteError(operation: operation(of: writes), underlying: underlying)
        // The transaction rolled back: what the writes changed in memory goes back to what
        // the database holds.
        let post = { (restores: [@MainActor @Sendable () -> QSChange]) in
            if abandoned {
                finishedWrites.post(.restored(restores))
            } else {
                finishedWrites.post(.failed(failure, writes: writes.map(\.ticket) + (ticket.map { [$0] } ?? []), restores: restores))
            }
        }
        if let state {
            // The rows are read back into instances, which no read on a reader may race.
            state.withReadAdoptionsTaken {
                let context = QueueContext(state: state, registry: registry)
                post(MemoryTouches.restoreWork(for: writes.map { ($0.touches, $0.source) }, in: context))
            }
        } else {
            post([])
        }
        finishedWrites.post(.settled)
        whenEnding(state)
        finishTickets(of: writes, failure: failure, committed: [])
    }

    private func finishTickets(of writes: [PendingWrite], failure: QSWriteError?, committed: [QSChange]) {
        for (index, write) in writes.enumerated() {
            if let failure { write.ticket.finish(failure) } else { write.ticket.finish(committing: committed[index]) }
        }
        ticket?.finish(failure, changes: committed)
    }

    /// What the app's own SQL in this transaction changed, read from the entries the change log's
    /// triggers wrote for it, before the store writes its own. Should the transaction still roll
    /// back, `tracker` undoes what the read changed in the queue's tables.
    private func readAppSQLChanges(_ state: QueueState, open: OpenTransaction) throws -> OutsideChangesRead? {
        guard let log = state.changeLog, log.appSQLRan else { return nil }
        log.appSQLRan = false
        return try state.outsideChanges?.read(state, origin: .appSQL, source: source(of: open.writes), tracker: open.writer?.tracker)
    }

    /// Where the transaction's writes came from: sync when any write merged values from sync.
    private func source(of writes: [PendingWrite]) -> QSChangeSource {
        writes.contains { $0.source == .sync } ? .sync : .app
    }

    private func rollBack(_ state: QueueState, open: OpenTransaction) {
        // The entries the app's SQL logged roll back too, and their numbers will be used again
        // by the next writer: the store's position goes back to before them. Other connections'
        // entries, read as the transaction began, stay, but the rows they name were not read
        // for the main actor: the position goes back before them too, for the next look to
        // read them again.
        let readOthers = open.outsideEntries != nil
        state.changeLog?.didRollBack(restoringPosition: readOthers ? open.positionAtBegin : open.positionBeforeAppSQL, lookAgain: readOthers)
        rollBack(state.connection)
    }

    private func rollBack(_ connection: SQLiteConnection) {
        // A failed statement may have ended the transaction already.
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    /// How a failure names what was being written.
    private func operation(of writes: [PendingWrite]) -> String {
        writes.count == 1 ? writes[0].operation : "batch of \(writes.count) writes (\(writes.map(\.operation).joined(separator: "; ")))"
    }
}

/// A write transaction begun on the database queue and not yet ended: the writer (with its record
/// of the snapshots it changed), the changes of the writes run so far, and the error that stopped
/// them. Kept in ``QueueState`` between ``WriteTransaction/begin(on:)`` and
/// ``WriteTransaction/finish(on:abandoned:)``.
final class OpenTransaction {
    let writer: RowWriter?
    /// Every write of the transaction taken so far: those known when it was enqueued, then a
    /// batch's as they arrived.
    var writes: [PendingWrite]
    var committed: [(change: QSChange, operation: String, afterCommit: AfterCommitWork?)] = []
    /// What the app's own SQL in the transaction changed, posted after its commit.
    var appSQLChanges: FinishedWrites.Item?
    /// The entries other connections committed before the transaction began, read as it began;
    /// the rows they name are read once its writes are done.
    var outsideEntries: NewLogEntries?
    /// What those connections changed, posted after the commit, before the transaction's own changes.
    var outsideChanges: FinishedWrites.Item?
    /// The change log's position as the transaction began.
    var positionAtBegin: Int64?
    /// The change log's position once other writers' entries were read, before any the
    /// transaction's own SQL logged: where the store's position goes back to on a rollback.
    var positionBeforeAppSQL: Int64?
    var failure: (any Error)?
    /// A batch whose body made no write, or threw before the queue took one: no transaction was
    /// begun, and none is to end.
    var neverBegan = false
    /// The file watcher held quiet from `BEGIN` to the end of `COMMIT` or `ROLLBACK`.
    var watchQuiet: OwnWriteQuiet?

    init(writer: RowWriter?, writes: [PendingWrite], failure: (any Error)? = nil) {
        self.writer = writer
        self.writes = writes
        self.failure = failure
    }
}

/// A write given up before it committed because the main actor could not patch the instances it
/// changes. Its transaction rolls back; the caller heard the reason from the call that made it.
struct WriteAbandoned: Error {}
