import Deadline

/// What a test throws when an operation has not finished by its deadline.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let operation: String
    public let limit: Duration

    public var description: String { "\(operation) had not finished after \(limit): a wait nobody ends (lost wakeup?)" }
}

/// Runs `operation` in a task of its own and returns its result, or throws ``DeadlineExceeded``
/// once `limit` has passed, cancelling the task and leaving it behind if it ignores cancellation.
///
/// Swift Testing's time limit cancels a test but still waits for its body to return, so a
/// continuation nobody resumes hangs the whole test process; this bound fails the one test
/// instead. Cancelling the caller cancels the operation.
public func withDeadline<Value: Sendable>(
    _ limit: Duration, _ operation: String, _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await Deadline.run(limit, passed: { DeadlineExceeded(operation: operation, limit: limit) }, body)
}
