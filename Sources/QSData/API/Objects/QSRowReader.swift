import CSQLite

/// Steps a fetch's statement row by row for `QSDataObject._instances(from:)`.
///
/// Apps never make one; it exists so the per-row loop can be compiled into each model type.
public struct QSRowReader {
    @usableFromInline let row: QSRow
    @usableFromInline let handle: OpaquePointer
    private let statement: SQLiteStatement

    init(row: QSRow, statement: SQLiteStatement) {
        self.row = row
        self.handle = statement.handle
        self.statement = statement
    }

    /// Moves to the next row; false when there are no more.
    @inlinable
    public func next() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW {
            row.advance()
            return true
        }
        if code == SQLITE_DONE { return false }
        throw stepError(code)
    }

    @usableFromInline
    func stepError(_ code: Int32) -> SQLiteError {
        let error = statement.connection.error(code: code, sql: statement.sql)
        sqlite3_reset(handle)
        return error
    }
}
