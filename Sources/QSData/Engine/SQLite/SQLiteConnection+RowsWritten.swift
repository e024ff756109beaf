import CSQLite

extension SQLiteConnection {
    /// A kind of row write that SQLite's update hook reports.
    enum HookedWrite {
        case insert
        case delete

        fileprivate var operation: Int32 {
            switch self {
            case .insert: return SQLITE_INSERT
            case .delete: return SQLITE_DELETE
            }
        }
    }

    /// Runs `body` and returns the rowids of the rows it inserted into or deleted from `table`,
    /// in the order SQLite wrote them, as its update hook reports them: one call per row, far
    /// cheaper than a `RETURNING` clause, which runs a trigger program for each row and keeps a
    /// table of the rows to return.
    ///
    /// Rows written to other tables (by triggers, say) are not listed; rows a trigger writes to
    /// `table` itself are. The hook is the connection's only one, set for `body` alone. SQLite
    /// does not call it for a WITHOUT ROWID table, nor for a DELETE without a WHERE clause (it
    /// empties the table at once): callers use it for neither. A row an upsert leaves alone
    /// (`ON CONFLICT DO NOTHING`) is not written, so not listed.
    func rowIDs(_ write: HookedWrite, in table: String, by body: () throws -> Void) throws -> [Int64] {
        let collector = WrittenRowIDs(operation: write.operation, table: table)
        sqlite3_update_hook(handle, { context, operation, _, table, rowID in
            guard let context, let table else { return }
            Unmanaged<WrittenRowIDs>.fromOpaque(context).takeUnretainedValue().record(rowID, operation: operation, table: table)
        }, Unmanaged.passUnretained(collector).toOpaque())
        defer { sqlite3_update_hook(handle, nil, nil) }
        try withExtendedLifetime(collector) { try body() }
        return collector.rowIDs
    }
}

/// The rowids written to one table by one kind of write, as the update hook reports them.
private final class WrittenRowIDs {
    private let operation: Int32
    private let table: [CChar]
    private(set) var rowIDs: [Int64] = []

    init(operation: Int32, table: String) {
        self.operation = operation
        self.table = Array(table.utf8CString)
    }

    func record(_ rowID: Int64, operation: Int32, table writtenTo: UnsafePointer<CChar>) {
        // Table names are compared as SQLite compares them: without regard to ASCII case.
        if operation == self.operation, sqlite3_stricmp(writtenTo, table) == 0 { rowIDs.append(rowID) }
    }
}
