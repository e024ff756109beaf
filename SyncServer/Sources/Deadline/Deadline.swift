import Synchronization

/// Runs work that may never finish (a query on a connection that died without a word, a wait
/// nobody ends) and gives up on it at a deadline without waiting for it.
public enum Deadline {
    /// `body`'s result, or `passed()` thrown once `limit` has gone by; the work is then cancelled
    /// and left behind in case it ignores cancellation. Cancelling the caller cancels the work.
    public static func run<Value: Sendable>(
        _ limit: Duration, passed: @escaping @Sendable () -> any Error, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let work = Task { try await body() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = FirstOutcome(continuation)
                let timer = Task {
                    try await Task.sleep(for: limit)
                    // The deadline's answer first: cancelled work can fail at once, and its
                    // failure (a cancelled wait, say) must not be taken for the outcome.
                    outcome.deliver(.failure(passed()))
                    work.cancel()
                }
                Task {
                    let result = await work.result
                    timer.cancel()
                    outcome.deliver(result)
                }
            }
        } onCancel: {
            work.cancel()
        }
    }
}

/// Resumes a continuation with whichever outcome arrives first and ignores the rest.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func deliver(_ result: Result<Value, any Error>) {
        let waiting = continuation.withLock { pending in
            defer { pending = nil }
            return pending
        }
        waiting?.resume(with: result)
    }
}
