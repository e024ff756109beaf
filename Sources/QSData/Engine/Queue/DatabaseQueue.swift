import Dispatch

/// The one serial queue that owns the SQLite connection (in its ``QueueState``). Every fetch and
/// write runs here, in the order it was enqueued; nothing else ever touches the connection.
final class DatabaseQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "QSData.database", qos: .userInitiated)
    /// Touched only on `queue`.
    private var state: QueueState?

    /// Opens the connection, on the queue, without writing to the file (see ``SQLiteConnection/useWriteAheadLog()``).
    /// `valueChildTables` are the tables whose existing rows the queue keeps (see ``KnownValueRows``).
    func open(path: String, valueChildTables: Set<String>) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                do {
                    self.state = QueueState(connection: try SQLiteConnection(path: path), valueChildTables: valueChildTables)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Runs `work` after everything enqueued before it, without waiting for it.
    /// `work` receives nil when the store is closed.
    func enqueue(_ work: @escaping @Sendable (QueueState?) -> Void) {
        queue.async { work(self.state) }
    }

    /// Runs `work` after everything enqueued before it and returns its result.
    ///
    /// On its caller's actor (`nonsending`), so that the queue resumes the main actor's wait
    /// directly: left to the default, the wait would start and end on the global executor,
    /// four thread switches for every fetch instead of two.
    nonisolated(nonsending) func perform<Value: Sendable>(_ work: @escaping @Sendable (QueueState) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                guard let state = self.state else {
                    continuation.resume(throwing: QSDataError.storeClosed)
                    return
                }
                continuation.resume(with: Result { try state.runSealed(work) })
            }
        }
    }

    /// Closes the connection after everything enqueued before.
    func close() async {
        await withCheckedContinuation { continuation in
            queue.async {
                self.state = nil
                continuation.resume()
            }
        }
    }
}
