/// The writes that commit together in one transaction on the database queue, all or none, and
/// what their outcome tells the main actor: changes to deliver once committed, or the error and
/// the work that brings the instances back to what the database holds once rolled back.
struct WriteTransaction: Sendable {
    let writes: [PendingWrite]
    /// The batch's own ticket, for writes collected by a batch; nil for a single write.
    let ticket: QSWrite?
    let registry: TypeRegistry
    let finishedWrites: FinishedWrites

    /// Database queue: runs the writes in one transaction (`state` is nil once the store
    /// is closed: the writes then fail) and posts the outcome to `finishedWrites`.
    func run(on state: QueueState?) {
        var failure: QSWriteError?
        var committed: [(change: QSChange, operation: String, afterCommit: AfterCommitWork?)] = []
        let writer = state.map { RowWriter(state: $0, registry: registry) }
        do {
            guard let state, let writer else { throw QSDataError.storeClosed }
            let connection = state.connection
            let trust = state.snapshotTrust
            try connection.transaction {
                trust.noticeChanges(on: connection)
                for write in writes {
                    var change = QSChange(source: write.source)
                    let afterCommit = try write.work(writer, &change)
                    committed.append((change, write.operation, afterCommit))
                }
            }
            trust.explainCommit(on: connection)
            for (change, operation, afterCommit) in committed {
                finishedWrites.post(.committed(change, operation: operation, afterCommit: afterCommit))
            }
        } catch {
            writer?.tracker.forgetTouched()
            let writeError = QSWriteError(operation: operation, underlying: error)
            failure = writeError
            // The transaction rolled back: what the writes changed in memory goes back to what
            // the database holds.
            var restores: [@MainActor @Sendable () -> QSChange] = []
            if let state {
                let context = QueueContext(state: state, registry: registry)
                restores = MemoryTouches.restoreWork(for: writes.map { ($0.touches, $0.source) }, in: context)
            }
            finishedWrites.post(.failed(writeError, writes: writes.map(\.ticket) + (ticket.map { [$0] } ?? []), restores: restores))
        }
        for (index, write) in writes.enumerated() {
            write.ticket.finish(failure, changes: failure == nil ? [committed[index].change] : [])
        }
        ticket?.finish(failure, changes: committed.map(\.change))
    }

    /// How a failure names what was being written.
    private var operation: String {
        writes.count == 1 ? writes[0].operation : "batch of \(writes.count) writes (\(writes.map(\.operation).joined(separator: "; ")))"
    }
}
