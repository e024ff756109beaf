/// The instances reads on reader connections made and the main actor kept, on their way to the
/// queue's table of known rows (``KnownRows``).
///
/// Not queued like the main actor's other notes (``KnownRowsNotes``): those wait behind the
/// background write, and the queue must know these instances before it next re-reads held rows
/// for a commit (the app's own SQL in the background write, or another connection's), or they
/// would keep the values from before it. So the queue takes them whenever it starts work that
/// may make instances or post a commit, and *seals* the box until that work is done: a read that
/// arrives at the main actor meanwhile is not kept, and runs again. The same holds while
/// instances the queue made are on their way to the main actor.
final class ReadAdoptions: Sendable {
    typealias Adoption = (binding: any AnyTypeBinding, ids: [QSAnyID], instances: [Instance])

    private struct State {
        var waiting: [Adoption] = []
        /// How many pieces of queue work have sealed the box and not yet unsealed it.
        var seals = 0
        var waitingForUnseal: [CheckedContinuation<Void, Never>] = []
        /// Handovers of instances the queue made, not yet taken in by the main actor.
        var handoversInTransit: Set<UInt64> = []
        var lastHandover: UInt64 = 0
    }

    private let state = LockedState(State())

    enum Deposit {
        case taken
        /// The queue is at work that may make instances or post a commit: try again once it is done.
        case sealed
        /// A commit was posted after the read, or instances the queue made are on their way.
        case refused
    }

    /// Main actor: hands over what a read made, unless the queue is at work that may make
    /// instances or post a commit, has posted a commit after `commitNumber` (the last the read
    /// reflects), or has made instances the main actor has not taken in yet (the main actor would
    /// not know of them, and keep the read's for the same rows).
    func deposit(_ adoptions: [Adoption], reflecting commitNumber: UInt64, finishedWrites: FinishedWrites) -> Deposit {
        state.withLock { box in
            if box.seals > 0 { return .sealed }
            guard box.handoversInTransit.isEmpty, finishedWrites.lastCommitNumber <= commitNumber else { return .refused }
            box.waiting += adoptions
            return .taken
        }
    }

    /// Returns once no queue work holds the box sealed.
    nonisolated(nonsending) func waitUntilUnsealed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { box -> Bool in
                if box.seals > 0 { box.waitingForUnseal.append(continuation) }
                return box.seals == 0
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Database queue, while sealed: instances the queue made are on their way to the main
    /// actor; returns the number ``handedOver(_:)`` takes once they are there.
    func handoverStarted() -> UInt64 {
        state.withLock { box in
            box.lastHandover += 1
            box.handoversInTransit.insert(box.lastHandover)
            return box.lastHandover
        }
    }

    /// Main actor: the instances of handover `number` are in the main actor's tables.
    func handedOver(_ number: UInt64) {
        _ = state.withLock { $0.handoversInTransit.remove(number) }
    }

    /// Database queue: takes what is waiting and seals the box until ``unseal()``.
    private func sealAndTake() -> [Adoption] {
        state.withLock { box in
            box.seals += 1
            defer { box.waiting = [] }
            return box.waiting
        }
    }

    /// Database queue: the commit has been posted.
    func unseal() {
        let waiting = state.withLock { box -> [CheckedContinuation<Void, Never>] in
            box.seals -= 1
            guard box.seals == 0 else { return [] }
            defer { box.waitingForUnseal = [] }
            return box.waitingForUnseal
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Database queue: keeps what was waiting in the queue's tables, sealing the box until
    /// ``unseal()``.
    func sealAndApply(to state: QueueState) {
        for adoption in sealAndTake() {
            let known = state.knownRows(of: adoption.binding)
            for (id, instance) in zip(adoption.ids, adoption.instances) {
                known.adoptRead(instance, id: id, epoch: state.snapshotTrust.epoch)
            }
        }
    }
}
