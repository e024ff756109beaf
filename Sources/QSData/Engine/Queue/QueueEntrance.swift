/// The main actor's one way onto the database queue: work reaches the queue in the order the
/// main actor hands it over.
///
/// A large save is encoded over several main-actor turns (see ``QSStore/save(_:source:alongside:)``),
/// and its write must reach the queue whole, with no transaction left open while the main actor
/// encodes. So while such a save is being encoded, the entrance *holds* the line: the save's write
/// and everything handed over after it wait here, in order, and go to the queue together once
/// the last hold is released. A fetch issued meanwhile still runs after the save, as every fetch
/// runs after the writes enqueued before it; the queue itself never waits for the main actor.
@MainActor
final class QueueEntrance {
    private let queue: DatabaseQueue
    private let registry: TypeRegistry
    private var holds = 0
    private var waiting: [@Sendable (QueueState?) -> Void] = []

    init(queue: DatabaseQueue, registry: TypeRegistry) {
        self.queue = queue
        self.registry = registry
    }

    /// Whether work handed over now waits here for a large save's encoding.
    var isHeld: Bool { holds > 0 }

    /// Hands `work` to the queue, after everything handed over before it, without waiting for
    /// it. `work` receives nil when the store is closed.
    func enqueue(_ work: @escaping @Sendable (QueueState?) -> Void) {
        handOverNotes()
        if holds > 0 {
            waiting.append(work)
        } else {
            queue.enqueue(work)
        }
    }

    /// Runs `work` on the queue after everything handed over before it, and returns its result.
    func perform<Value: Sendable>(_ work: @escaping @Sendable (QueueState) throws -> Value) async throws -> Value {
        handOverNotes()
        guard holds > 0 else { return try await queue.perform(work) }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.append { state in
                guard let state else {
                    continuation.resume(throwing: QSDataError.storeClosed)
                    return
                }
                continuation.resume(with: Result {
                    try state.catchUpWithOtherConnections()
                    return try work(state)
                })
            }
        }
    }

    /// Hands the queue what the main actor changed in its instance tables that the queue's own
    /// tables must follow (see ``ObjectCache``), ahead of the work about to be handed over.
    private func handOverNotes() {
        guard let notes = registry.takeKnownRowsNotes() else { return }
        let registry = self.registry
        let work: @Sendable (QueueState?) -> Void = { state in
            guard let state else { return }
            for (name, typeNotes) in notes {
                guard let binding = registry.binding(named: name) else { continue }
                typeNotes.apply(to: state.knownRows(of: binding))
            }
        }
        if holds > 0 { waiting.append(work) } else { queue.enqueue(work) }
    }

    /// Closes the connection after everything handed over before.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            enqueue { _ in continuation.resume() }
        }
        await queue.close()
    }

    /// Holds back work handed over from now on, until every hold is released.
    func hold() {
        holds += 1
    }

    /// Releases one hold; when none is left, the work held back goes to the queue, in order.
    func release() {
        precondition(holds > 0, "QueueEntrance.release() without a hold")
        holds -= 1
        guard holds == 0 else { return }
        let released = waiting
        waiting = []
        for work in released { queue.enqueue(work) }
    }
}
