/// The place in the database queue where a background write begins.
///
/// When the queue reaches it, every write enqueued before the background write has committed (or
/// rolled back). Reads issued while the background write runs wait for this gate to open, then
/// read on a reader connection: they see every write enqueued before them, and not the background
/// write until it commits (see ``QueueEntrance``).
final class ReadGate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())

    /// Database queue: everything enqueued before the gate has run.
    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the gate is open.
    nonisolated(nonsending) func waitUntilOpen() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state -> Bool in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}
