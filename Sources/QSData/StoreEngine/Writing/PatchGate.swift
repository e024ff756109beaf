import Foundation

/// Lets a write's transaction run its SQL while the main actor patches the cached instances the
/// write changes, and commit only once the patch is done.
///
/// The main actor enqueues the write, patches, then opens the gate, or abandons the write when an
/// instance could not take the new values. The transaction waits at the gate before it commits:
/// opened, it commits; abandoned, it rolls back (and the instances are restored) without
/// reporting a write error, since the call that made the write has already thrown.
///
/// The wait cannot last: the main actor resolves the gate right after enqueueing, in the same
/// synchronous call.
final class PatchGate: @unchecked Sendable {
    private enum State {
        case waiting
        case opened
        case abandoned
    }

    private let condition = NSCondition()
    private var state = State.waiting

    /// Main actor: every instance is patched; the write may commit.
    func open() {
        resolve(.opened)
    }

    /// Main actor: the patch failed; the write must roll back.
    func abandon() {
        resolve(.abandoned)
    }

    /// Database queue: waits until the main actor has patched; throws ``WriteAbandoned`` when the
    /// patch failed.
    func waitForPatch() throws {
        condition.lock()
        while state == .waiting { condition.wait() }
        let state = self.state
        condition.unlock()
        if state == .abandoned { throw WriteAbandoned() }
    }

    private func resolve(_ outcome: State) {
        condition.lock()
        state = outcome
        condition.broadcast()
        condition.unlock()
    }
}

/// A write given up before it committed because the main actor could not patch the instances it
/// changes. Its transaction rolls back; the caller heard the reason from the call that made it.
struct WriteAbandoned: Error {}
