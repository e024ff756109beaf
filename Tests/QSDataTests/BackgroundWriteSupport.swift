import Dispatch
import Foundation
import QSData
import Testing

/// Holds a write transaction (or a read) open on its thread until the test lets it go, so that a
/// test can look at the store while the transaction is open, and know it is.
final class ThreadPause: Sendable {
    struct NeverReached: Error {}

    private let reached = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let events = LockedEvents()

    /// On the paused thread: says it is here, then waits to be let go (at most 30 s, so a test
    /// that fails can't hang the suite).
    func hold() {
        reached.signal()
        _ = released.wait(timeout: .now() + 30)
    }

    /// Returns once `hold()` has been reached; throws after `seconds`.
    func waitUntilReached(seconds: Double = 10) async throws {
        let reached = self.reached
        let didReach = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: reached.wait(timeout: .now() + seconds) == .success)
            }
        }
        if !didReach { throw NeverReached() }
    }

    /// Lets the paused thread go on.
    func release() {
        released.signal()
    }
}

/// A list of what happened, in order, from any thread.
final class LockedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func append(_ event: String) {
        lock.lock()
        list.append(event)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}

enum Waiting {
    struct TimedOut: Error {}

    /// How long a wait may take before it counts as hung. A bound on a hang, not a speed: a read
    /// that waited for a held write would wait until released, while on a busy machine other
    /// suites' main-actor work (saves of thousands of objects) can keep a healthy read from the
    /// main actor for more than ten seconds.
    static let hangLimit: Double = 60

    /// `body`'s result, or `TimedOut` when it takes longer than `seconds`. Runs `onTimeout` first
    /// then (to let whatever holds `body` up go, so the suite doesn't hang).
    @MainActor
    static func within<Value>(
        _ seconds: Double = hangLimit, onTimeout: @escaping @Sendable () -> Void = {}, _ body: @escaping @MainActor () async throws -> Value
    ) async throws -> Value {
        let outcome = Outcome<Value>()
        let result = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<OnMainActor<Value>, any Error>) in
            outcome.continuation = continuation
            Task { @MainActor in
                do { outcome.finish(.success(OnMainActor(value: try await body()))) } catch { outcome.finish(.failure(error)) }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if outcome.finish(.failure(TimedOut())) { onTimeout() }
            }
        }
        return result.value
    }

    /// A main-actor value passed back to the main actor through a continuation.
    struct OnMainActor<Value>: @unchecked Sendable {
        let value: Value
    }

    private final class Outcome<Value>: @unchecked Sendable {
        private let lock = NSLock()
        var continuation: CheckedContinuation<OnMainActor<Value>, any Error>?

        /// Resumes the waiting caller, once; returns whether this call did.
        @discardableResult
        func finish(_ result: Result<OnMainActor<Value>, any Error>) -> Bool {
            lock.lock()
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(with: result)
            return waiting != nil
        }
    }
}
