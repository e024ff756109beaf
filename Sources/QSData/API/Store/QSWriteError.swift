/// A write that failed on the database queue. Its transaction was rolled back.
///
/// Writes are not awaited, so their failures reach the app later: through
/// ``QSStore/flush()``, which throws the first failure since the previous flush, and through
/// ``QSStore/observeWriteErrors(_:)`` and ``QSStore/writeErrors``.
///
/// One failure comes after a commit: when an update `where:` an SQL condition has committed and
/// a cached instance can't take the new values. Then ``wasRolledBack`` is false, the database
/// holds the update, and the store has forgotten the instances it could not patch.
public struct QSWriteError: Error, Sendable, CustomStringConvertible {
    /// What the app asked for, such as `save 3 VSNote`.
    public let operation: String
    /// Why it failed: usually an ``SQLiteError`` carrying the result code and the SQL.
    public let underlying: any Error
    /// Whether the write's transaction was rolled back (true for every failure but the one
    /// after a commit described above).
    public let wasRolledBack: Bool

    init(operation: String, underlying: any Error, wasRolledBack: Bool = true) {
        self.operation = operation
        self.underlying = underlying
        self.wasRolledBack = wasRolledBack
    }

    public var description: String {
        wasRolledBack
            ? "\(operation) failed and was rolled back: \(underlying)"
            : "\(operation) committed, but cached instances could not take the new values and were forgotten: \(underlying)"
    }
}
