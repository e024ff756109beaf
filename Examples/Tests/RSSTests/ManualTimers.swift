import Foundation
import Synchronization

/// Timers that expire when the test says so instead of when time passes: a `sleep` for
/// ``FeedFetcher``. A timer whose fetch ends first is cancelled, as a real one would be.
final class ManualTimers: Sendable {
    private struct State {
        var expired = false
        var waiting: [UUID: CheckedContinuation<Void, any Error>] = [:]
        var started = 0
    }

    private let state = Mutex(State())

    /// How many timers were started.
    var started: Int { state.withLock { $0.started } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { _ in try await self.wait() }
    }

    /// Expires every running timer, and every one started from now on.
    func expireAll() {
        let waiting = state.withLock { state in
            state.expired = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    private func wait() async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock: a cancellation that came first is seen here (the task is marked
                // cancelled before its handler runs); one that comes later finds the continuation.
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    state.started += 1
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.expired { return .success(()) }
                    state.waiting[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}
