/// Whether an observer has been cancelled; the change center skips and forgets cancelled ones.
final class ObserverToken: Sendable {
    private let cancelled = LockedState(false)

    var isCancelled: Bool { cancelled.withLock { $0 } }

    func cancel() {
        cancelled.withLock { $0 = true }
    }
}
