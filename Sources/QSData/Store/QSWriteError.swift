/// A write that failed on the database queue. Its transaction was rolled back.
///
/// Writes are not awaited, so their failures reach the app later: through
/// ``QSStore/flush()``, which throws the first failure since the previous flush, and through
/// ``QSStore/observeWriteErrors(_:)`` and ``QSStore/writeErrors``.
public struct QSWriteError: Error, Sendable, CustomStringConvertible {
    /// What the app asked for, such as `save 3 VSNote`.
    public let operation: String
    /// Why it failed: usually an ``SQLiteError`` carrying the result code and the SQL.
    public let underlying: any Error

    public var description: String { "\(operation) failed and was rolled back: \(underlying)" }
}
