/// Turns the file watcher's wake-ups into a look at the change log on the database queue, at
/// most one waiting at a time, and hands what it found to the main actor.
final class OutsideChangeWakeUps: Sendable {
    private let queue: DatabaseQueue
    private let isPending = LockedState(false)
    private let deliver: @Sendable () -> Void

    /// `deliver` runs after each look that found something, off the main actor: it hops there itself.
    init(queue: DatabaseQueue, deliver: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.deliver = deliver
    }

    func wake() {
        let alreadyPending = isPending.withLock { pending in
            defer { pending = true }
            return pending
        }
        guard !alreadyPending else { return }
        queue.enqueue { [self] state in
            isPending.withLock { $0 = false }
            guard let state else { return }
            do {
                guard try state.withReadAdoptionsTaken({ try state.outsideChanges?.catchUp(state, origin: .otherConnection) }) == true else { return }
            } catch {
                // The next fetch or write looks again, and its caller hears the failure.
                return
            }
            deliver()
        }
    }
}
