import Dispatch

/// One reader connection to the file, with the serial queue that alone touches it. Opened on its
/// first read; closed when the pool lets it go.
///
/// Each read runs in its own read transaction, so that every statement of it sees one committed
/// state of the file: all of a transaction that committed before the read began, none of one that
/// commits while it runs (the file is in write-ahead-log mode, so the writer never waits for it).
final class ReaderConnection: @unchecked Sendable {
    private let queue = DispatchQueue(label: "QSData.reader", qos: .userInitiated)
    private let path: String
    /// Touched only on `queue`.
    private var connection: SQLiteConnection?

    init(path: String) {
        self.path = path
    }

    /// Runs `work` in a read transaction on this connection, opening it first when needed, with
    /// its statements recorded by `recorder` when given; then calls `finished` with the outcome,
    /// still on the connection's queue.
    func read<Value>(
        recordingTo recorder: StatementRecorder?, _ work: @escaping @Sendable (SQLiteConnection) throws -> Value,
        then finished: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        queue.async {
            finished(Result { try self.readInTransaction(recordingTo: recorder, work) })
        }
    }

    private func readInTransaction<Value>(recordingTo recorder: StatementRecorder?, _ work: (SQLiteConnection) throws -> Value) throws -> Value {
        let connection = try opened()
        if let recorder { connection.startRecording(recorder) }
        defer { if recorder != nil { connection.stopRecording() } }
        try connection.execute("BEGIN DEFERRED")
        do {
            let value = try work(connection)
            try connection.execute("COMMIT")
            return value
        } catch {
            // Ending a read transaction can't lose anything; the read's own error is what counts.
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private func opened() throws -> SQLiteConnection {
        if let connection { return connection }
        let opened = try SQLiteConnection(path: path)
        // A reader never writes: SQLite refuses any statement that would.
        try opened.execute("PRAGMA query_only = 1")
        connection = opened
        return opened
    }

    /// Closes the connection once the reads enqueued on it have run.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.connection = nil
                continuation.resume()
            }
        }
    }
}
