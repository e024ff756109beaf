/// The instances reads on reader connections made and the main actor kept, on their way to the
/// queue's table of known rows (``KnownRows``).
///
/// Not queued like the main actor's other notes (``KnownRowsNotes``): those wait behind the
/// background write, and the queue must know these instances before it next re-reads held rows
/// for a commit (the app's own SQL in the background write, or another connection's), or they
/// would keep the values from before it. So the queue takes them whenever it is about to read
/// such changes and post them, and *seals* the box until it has posted: a read that arrives at
/// the main actor meanwhile is not kept, and runs again, after the commit.
final class ReadAdoptions: Sendable {
    typealias Adoption = (binding: any AnyTypeBinding, ids: [QSAnyID], instances: [Instance])

    private struct State {
        var waiting: [Adoption] = []
        var isSealed = false
    }

    private let state = LockedState(State())

    /// Main actor: hands over what a read made, unless the queue is posting a commit now, or
    /// has posted one after `commitNumber` (the last the read reflects). Returns whether it did.
    func deposit(_ adoptions: [Adoption], reflecting commitNumber: UInt64, finishedWrites: FinishedWrites) -> Bool {
        state.withLock { box in
            guard !box.isSealed, finishedWrites.lastCommitNumber <= commitNumber else { return false }
            box.waiting += adoptions
            return true
        }
    }

    /// Database queue: takes what is waiting and seals the box until ``unseal()``.
    func sealAndTake() -> [Adoption] {
        state.withLock { box in
            box.isSealed = true
            defer { box.waiting = [] }
            return box.waiting
        }
    }

    /// Database queue: the commit has been posted.
    func unseal() {
        state.withLock { $0.isSealed = false }
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
