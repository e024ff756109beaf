import Deadline

/// Runs work that may never finish (a query on a database connection that died without a word)
/// and gives up on it at a deadline without waiting for it.
enum CallDeadline {
    /// The deadline passed before the work finished.
    struct Passed: Error {}

    /// `body`'s result, or ``Passed`` once `limit` has gone by; the work is then cancelled and
    /// left behind in case it ignores cancellation. Cancelling the caller cancels the work.
    static func run<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Value) async throws
        -> Value
    {
        try await Deadline.run(limit, passed: { Passed() }, body)
    }
}
