/// The main actor's one way onto the database queue: work reaches the queue in the order the
/// main actor hands it over. (A batch's writes and a large save's chunks follow their transaction
/// through a stream of their own once it has entered: see ``WriteStream`` and
/// ``LargeSaveEncoding``.)
///
/// A large save is encoded over several main-actor turns (see ``QSStore/save(_:source:alongside:)``);
/// its write goes to the queue at once and takes each chunk as it is encoded (see
/// ``LargeSaveEncoding``), so a fetch issued meanwhile runs after the save, as every fetch runs
/// after the writes enqueued before it.
///
/// A *background* write (see ``QSStore/performInBackground(_:)``) is the exception reads may pass.
/// When one begins, a ``ReadGate`` is enqueued ahead of it; from then on, reads go to a reader
/// connection once that gate opens, instead of waiting behind the background write, until a
/// foreground write is handed over (a read must see that, so it waits on the queue again) or no
/// background write is left in flight.
@MainActor
final class QueueEntrance {
    private let queue: DatabaseQueue
    private let registry: TypeRegistry
    /// The gate reads pass while a background write runs (see ``readGate``).
    private var backgroundGate: ReadGate?
    /// Background writes enqueued whose transactions have not ended yet; counted down on the queue,
    /// so that reads go back to the queue as soon as the last has run.
    private let backgroundWritesRunning = LockedState(0)

    /// Where a read issued now goes: after this gate, to a reader connection; nil: to the queue.
    var readGate: ReadGate? {
        guard let gate = backgroundGate, backgroundWritesRunning.withLock({ $0 > 0 }) else { return nil }
        return gate
    }
    /// Background writes begun and not yet ended.
    private var backgroundWrites = 0
    /// What each background write enqueued and not yet ended changed in memory, oldest first.
    private var backgroundTouches: [RowsChangedInBackground] = []

    init(queue: DatabaseQueue, registry: TypeRegistry) {
        self.queue = queue
        self.registry = registry
    }

    /// Hands `work` to the queue, after everything handed over before it, without waiting for
    /// it. `work` receives nil when the store is closed. Reads issued from now on wait for it.
    func enqueue(_ work: @escaping @Sendable (QueueState?) -> Void) {
        backgroundGate = nil
        enqueueLetting(work)
    }

    /// Hands `work`, which writes nothing the app sees (a background write, the gate in front of
    /// one, bookkeeping), to the queue without making later reads wait for it.
    func enqueueLetting(_ work: @escaping @Sendable (QueueState?) -> Void) {
        handOverNotes()
        queue.enqueue(work)
    }

    /// Runs `work` on the queue after everything handed over before it, and returns its result.
    /// Reads issued from now on wait for it, as for any work that may write.
    func perform<Value: Sendable>(_ work: @escaping @Sendable (QueueState) throws -> Value) async throws -> Value {
        backgroundGate = nil
        return try await performLetting(work)
    }

    /// Runs `work`, which writes nothing, on the queue after everything handed over before it,
    /// without making later reads wait for it.
    func performLetting<Value: Sendable>(_ work: @escaping @Sendable (QueueState) throws -> Value) async throws -> Value {
        handOverNotes()
        return try await queue.perform(work)
    }

    /// Runs `work`, a short read, at once on this thread as the queue when nothing handed over is
    /// waiting or running there (see ``DatabaseQueue/performIfIdle(_:)``), so it sees every write
    /// handed over before it; returns nil, having run nothing, when something is.
    func readIfIdle<Value>(_ work: (QueueState) throws -> Value) throws -> Value? {
        let notes = registry.takeKnownRowsNotes()
        let registry = self.registry
        let result = try queue.performIfIdle { state in
            if let notes { registry.apply(notes, to: state) }
            return try work(state)
        }
        if result == nil, let notes { handOver(notes) }
        return result
    }

    /// Hands the queue what the main actor changed in its instance tables that the queue's own
    /// tables must follow (see ``ObjectCache``), ahead of the work about to be handed over.
    private func handOverNotes() {
        guard let notes = registry.takeKnownRowsNotes() else { return }
        handOver(notes)
    }

    private func handOver(_ notes: [(String, KnownRowsNotes)]) {
        let registry = self.registry
        queue.enqueue { state in
            if let state { registry.apply(notes, to: state) }
        }
    }

    /// Closes the connection after everything handed over before.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            enqueue { _ in continuation.resume() }
        }
        await queue.close()
    }

    /// Begins a background write: reads issued from now on (until a foreground write) wait only
    /// for what was handed over before it. Call ``enqueueBackgroundWrite(_:)`` after, and
    /// ``endBackgroundWrite()`` once its transaction has ended.
    func beginBackgroundWrite() {
        backgroundWrites += 1
        // A gate with no foreground write since stands already; reads keep going through it.
        guard backgroundGate == nil else { return }
        let gate = ReadGate()
        // Opened even when the store has closed meanwhile: a read waiting on it then finds the
        // readers closed, rather than waiting for ever.
        enqueueLetting { _ in gate.open() }
        backgroundGate = gate
    }

    /// Hands the background write's transaction to the queue, without making later reads wait for
    /// it. `work` calls the closure it is given once its transaction has ended: from then on,
    /// reads use the queue again. Returns where to note what the write's parts change in memory.
    func enqueueBackgroundWrite(
        _ work: (_ ended: @escaping @Sendable () -> Void) -> @Sendable (QueueState?) -> Void
    ) -> RowsChangedInBackground {
        let changedRows = RowsChangedInBackground()
        backgroundTouches.append(changedRows)
        let running = backgroundWritesRunning
        running.withLock { $0 += 1 }
        enqueueLetting(work { running.withLock { $0 -= 1 } })
        return changedRows
    }

    /// The background write enqueued first has run (committed or rolled back). When no
    /// background write is left, reads go to the queue again.
    func endBackgroundWrite() {
        if !backgroundTouches.isEmpty { backgroundTouches.removeFirst() }
        precondition(backgroundWrites > 0, "QueueEntrance: a background write ended that never began")
        backgroundWrites -= 1
        if backgroundWrites == 0 { backgroundGate = nil }
    }

    /// Whether a background write still in flight changed the instance of row `id` of `table` in
    /// memory (changed it, or took it out of a cache): a reader, which sees the row as committed
    /// before, can't make an instance for it that agrees with the app's.
    func backgroundWriteTouched(_ id: QSAnyID, in table: String) -> Bool {
        backgroundTouches.contains { $0.contains(id, in: table) }
    }
}
