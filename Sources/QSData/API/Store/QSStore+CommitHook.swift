/// Work that runs inside every write transaction of a store just before it commits, on the
/// database queue (see ``QSCommittingTransaction``). A hook that throws rolls the transaction
/// back: the write fails with its error.
///
/// How QSDataSync queues every change to a synced type for upload in the same transaction as
/// the change, so that a crash between the two can't lose it.
package typealias QSCommitHook = @Sendable (QSCommittingTransaction) throws -> Void

/// A write transaction about to commit, as its commit hook sees it.
package struct QSCommittingTransaction {
    /// The transaction's connection.
    package let connection: SQLiteConnection
    /// Where its writes came from.
    package let source: QSChangeSource
    /// Per table, the uniqueIDs of rows its saves inserted again for instances the app still
    /// held when the store read that the rows had been deleted (by sync, another process or
    /// the app's own SQL). Such a save is an edit of an object deleted elsewhere, where a new
    /// instance with the same uniqueID would be a creation.
    package let rowsInsertedAgain: [String: [QSAnyID]]
}

extension QSStore {
    /// Sets (or, with nil, removes) the store's commit hook. The app's own SQL run with
    /// ``execute(_:_:)`` outside a transaction commits without it.
    package func setCommitHook(_ hook: QSCommitHook?) async throws {
        try checkOpen()
        try await database.perform { state in state.commitHook = hook }
    }

    /// Runs `body` in a write transaction of its own, in order with the store's other writes,
    /// and returns its result. Like the app's SQL (``write(_:_:)``), what `body` changes in model
    /// tables reaches held instances, observers and live queries, as a change from `source`;
    /// the commit hook hears `source` too.
    package func writeInOwnTransaction<Value: Sendable>(
        _ operation: String, source: QSChangeSource, _ body: @escaping @Sendable (SQLiteConnection) throws -> Value
    ) async throws -> Value {
        try beginWrite()
        let result = ResultBox<Value>()
        let write = PendingWrite(
            operation: operation, source: source,
            work: { writer, _ in
                let state = writer.state
                defer { state.snapshotTrust.distrustAll() }
                guard let log = state.changeLog else {
                    result.value = try body(writer.connection)
                    return nil
                }
                log.appSQLRan = true
                result.value = try log.triggers.withFileTriggers(on: state.connection) { try body(state.connection) }
                return nil
            },
            touches: nil, ticket: QSWrite(operation: operation, center: changeCenter))
        // Never joins a batch the app has open: its transaction is its own.
        enqueue([write], ticket: nil)
        try await write.ticket.committed()
        guard let value = result.value else { throw QSDataError.storeClosed }
        return value
    }
}

/// Carries a value out of work run on the database queue to the caller that awaits it.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    // Written on the queue before the write's ticket finishes, read after awaiting it.
    var value: Value?
}
