import ExampleTestSupport
import Synchronization
import Testing

@Suite("Deadlines on waits nobody ends")
struct WithDeadlineTests {
    @Test func aWaitNobodyEndsFailsAtItsDeadlineWithItsName() async throws {
        let waiter = ParkedWaiter()
        let error = await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.seconds(1), "a wait nobody ends") { await waiter.wait() }
        }
        #expect(error?.operation == "a wait nobody ends")
        #expect(error?.limit == .seconds(1))
        waiter.release()
    }

    /// Work that fails as soon as it is cancelled (a sleep, a pooled connection's lease) still
    /// ends in the deadline's own error: the deadline answers before it cancels the work.
    @Test func workThatFailsWhenCancelledEndsInTheDeadlinesError() async throws {
        for _ in 0..<20 {
            await #expect(throws: DeadlineExceeded.self) {
                try await withDeadline(.milliseconds(20), "a long sleep") { try await Task.sleep(for: .seconds(60)) }
            }
        }
    }

    @Test func aResultBeforeTheDeadlineIsReturned() async throws {
        #expect(try await withDeadline(.seconds(60), "a sum") { 2 + 3 } == 5)
    }

    @Test func anErrorBeforeTheDeadlineIsRethrown() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await withDeadline(.seconds(60), "a refusal") { throw Refused() }
        }
    }
}

/// A continuation that only ``release()`` resumes, whatever cancellation says: the shape of a
/// lost wakeup.
private final class ParkedWaiter: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case released
    }

    private let state = Mutex(State.idle)

    func wait() async {
        await withCheckedContinuation { continuation in
            let released = state.withLock { state -> Bool in
                guard case .idle = state else { return true }
                state = .waiting(continuation)
                return false
            }
            if released { continuation.resume() }
        }
    }

    func release() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .released }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiting?.resume()
    }
}
