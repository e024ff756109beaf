import CSQLite

extension SQLiteConnection {
    /// Runs `body` and returns the rowids of the rows it deleted from `table`, in the order
    /// SQLite deleted them, as its update hook reports them: one call per row, far cheaper than
    /// a `RETURNING` clause, which makes SQLite keep a table of the rows to return.
    ///
    /// Rows deleted from other tables (by triggers, say) are not listed; rows a trigger deletes
    /// from `table` itself are. The hook is the connection's only one, set for `body` alone.
    /// SQLite does not call it for a WITHOUT ROWID table, nor for a DELETE without a WHERE clause
    /// (it empties the table at once): callers use it for neither.
    func rowIDsDeleted(from table: String, by body: () throws -> Void) throws -> [Int64] {
        let collector = DeletedRowIDs(table: table)
        sqlite3_update_hook(handle, { context, operation, _, table, rowID in
            guard operation == SQLITE_DELETE, let context, let table else { return }
            Unmanaged<DeletedRowIDs>.fromOpaque(context).takeUnretainedValue().record(rowID, from: table)
        }, Unmanaged.passUnretained(collector).toOpaque())
        defer { sqlite3_update_hook(handle, nil, nil) }
        try withExtendedLifetime(collector) { try body() }
        return collector.rowIDs
    }
}

/// The rowids deleted from one table, as the update hook reports them.
private final class DeletedRowIDs {
    private let table: [CChar]
    private(set) var rowIDs: [Int64] = []

    init(table: String) {
        self.table = Array(table.utf8CString)
    }

    func record(_ rowID: Int64, from deletedFrom: UnsafePointer<CChar>) {
        // Table names are compared as SQLite compares them: without regard to ASCII case.
        if sqlite3_stricmp(deletedFrom, table) == 0 { rowIDs.append(rowID) }
    }
}
