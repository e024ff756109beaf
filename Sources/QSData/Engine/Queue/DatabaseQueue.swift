import Dispatch

/// The one serial queue that owns the SQLite connection (in its ``QueueState``). Every fetch and
/// write runs here, in the order it was enqueued; nothing else ever touches the connection. (A
/// short read may run on its caller's thread when the queue is idle, but as the queue: nothing
/// else runs there meanwhile. See ``performIfIdle(_:)``.)
final class DatabaseQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "QSData.database", qos: .userInitiated)
    /// Touched only on `queue`.
    private var state: QueueState?
    /// How many pieces of work were handed to `queue` and have not finished: while none has, work
    /// can run on its caller's thread instead (see ``performIfIdle(_:)``).
    private let unfinished = LockedState(0)

    /// Opens the connection, on the queue, without writing to the file (see ``SQLiteConnection/useWriteAheadLog()``).
    /// `valueChildTables` are the tables whose existing rows the queue keeps (see ``KnownValueRows``).
    func open(path: String, valueChildTables: Set<String>) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            run({
                Result { self.state = QueueState(connection: try SQLiteConnection(path: path), valueChildTables: valueChildTables) }
            }, then: { continuation.resume(with: $0) })
        }
    }

    /// Runs `work` after everything enqueued before it, without waiting for it.
    /// `work` receives nil when the store is closed.
    func enqueue(_ work: @escaping @Sendable (QueueState?) -> Void) {
        run({ work(self.state) }, then: { _ in })
    }

    /// Runs `work` after everything enqueued before it and returns its result.
    ///
    /// On its caller's actor (`nonsending`), so that the queue resumes the main actor's wait
    /// directly: left to the default, the wait would start and end on the global executor,
    /// four thread switches for every fetch instead of two.
    nonisolated(nonsending) func perform<Value: Sendable>(_ work: @escaping @Sendable (QueueState) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            run({
                Result {
                    guard let state = self.state else { throw QSDataError.storeClosed }
                    return try state.runSealed(work)
                }
            }, then: { continuation.resume(with: $0) })
        }
    }

    /// Runs `work` at once on the calling thread, as the queue, when nothing handed to the queue
    /// is waiting or running; returns nil without running it otherwise.
    ///
    /// For a short read: handing it to the queue's thread and resuming the caller afterwards are
    /// two thread switches, which cost more than a read of a few rows. The queue runs nothing
    /// else meanwhile, and work handed to it meanwhile (from another thread) waits behind it.
    /// The caller's thread is held for as long as `work` runs, so only short work belongs here.
    func performIfIdle<Value>(_ work: (QueueState) throws -> Value) throws -> Value? {
        let claimed = unfinished.withLock { count in
            guard count == 0 else { return false }
            count = 1
            return true
        }
        guard claimed else { return nil }
        defer { unfinished.withLock { $0 -= 1 } }
        return try queue.sync {
            guard let state else { throw QSDataError.storeClosed }
            return try state.runSealed(work)
        }
    }

    /// Closes the connection after everything enqueued before.
    func close() async {
        await withCheckedContinuation { continuation in
            run({ self.state = nil }, then: { continuation.resume() })
        }
    }

    /// Runs `body` on the queue, counted unfinished until it returns, then hands its outcome to
    /// `finish` (a waiting caller's resumption): counted finished first, so that the caller's next
    /// short read can find the queue idle.
    private func run<Outcome: Sendable>(_ body: @escaping @Sendable () -> Outcome, then finish: @escaping @Sendable (Outcome) -> Void) {
        unfinished.withLock { $0 += 1 }
        queue.async {
            let outcome = body()
            self.unfinished.withLock { $0 -= 1 }
            finish(outcome)
        }
    }
}
