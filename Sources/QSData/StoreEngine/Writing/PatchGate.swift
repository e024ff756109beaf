import Foundation

/// Lets a bulk update's transaction run its SQL while the main actor patches the cached instances
/// the update changes, and commit only once the patch is done.
///
/// The main actor enqueues the write, patches, then opens the gate, or abandons the write when an
/// instance could not take the new values. The transaction waits at the gate before it commits:
/// opened, it commits; abandoned, it rolls back (and the instances are restored) without
/// reporting a write error, since the call that made the write has already thrown.
///
/// The gate also decides who patches the row snapshots (see ``RowSnapshot``). Writes enqueued
/// earlier record snapshots of their own when they run, so the main actor may patch them only once
/// the queue has reached this write: then it does so as it opens, while the UPDATE is still
/// running, and the queue's transaction is spared that work. Otherwise the queue patches them
/// after its UPDATE, as a batch does. Either way the snapshots end the same.
///
/// The wait cannot last: the main actor resolves the gate right after enqueueing, in the same
/// synchronous call.
package final class PatchGate: @unchecked Sendable {
    /// How the main actor resolved the gate.
    package enum Outcome: Equatable, Sendable {
        /// Every instance is patched; the write may commit. `snapshotsPatched` says whether the
        /// main actor patched the row snapshots too.
        case opened(snapshotsPatched: Bool)
        /// An instance refused the new values; the write must roll back.
        case abandoned
    }

    private let condition = NSCondition()
    private var outcome: Outcome?
    private var queueHasReachedWrite = false

    package init() {}

    /// Database queue, first thing in the write's transaction: every write enqueued before this
    /// one has finished, so none can overwrite a snapshot the main actor patches from now on.
    package func queueReachesWrite() {
        condition.lock()
        queueHasReachedWrite = true
        condition.unlock()
    }

    /// Main actor: every instance is patched; the write may commit. When the queue has reached
    /// the write, `patchSnapshots` runs first, here.
    package func open(patchingSnapshots patchSnapshots: () -> Void) {
        condition.lock()
        let patchesSnapshots = queueHasReachedWrite
        if patchesSnapshots { patchSnapshots() }
        resolveLocked(.opened(snapshotsPatched: patchesSnapshots))
    }

    /// Main actor: the patch failed; the write must roll back.
    package func abandon() {
        condition.lock()
        resolveLocked(.abandoned)
    }

    /// Database queue: waits until the main actor has resolved the gate, and says how.
    package func waitForOutcome() -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome { return outcome }
            condition.wait()
        }
    }

    private func resolveLocked(_ outcome: Outcome) {
        self.outcome = outcome
        condition.broadcast()
        condition.unlock()
    }
}

/// A write given up before it committed because the main actor could not patch the instances it
/// changes. Its transaction rolls back; the caller heard the reason from the call that made it.
struct WriteAbandoned: Error {}
