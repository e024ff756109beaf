import QSData

/// Rows inserted for objects this replica knows were deleted. The store inserts a held
/// instance's row again when it is saved after the row was deleted (by a pull, say), and a
/// parent saved while it still lists a deleted child inserts the child. A delete wins over every
/// edit, so such a row is not a creation: ``ChangeCapture`` queues nothing of it and notes it in
/// `qsdata_sync_reinserted`, and the sync's next transaction of its own removes it, so that the
/// store's instances and observers hear of it as a change from sync.
///
/// Only an insert the app announced with ``QSSync/allowCreatingAgain(_:in:)`` (kept in
/// `qsdata_sync_allowed_creations` until the insert comes) is a creation.
enum ReinsertedRows {
    static let creationSQL = """
        CREATE TABLE IF NOT EXISTS qsdata_sync_reinserted (tableName TEXT NOT NULL, id NOT NULL, PRIMARY KEY (tableName, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS qsdata_sync_allowed_creations (tableName TEXT NOT NULL, id NOT NULL, PRIMARY KEY (tableName, id)) WITHOUT ROWID;
        """

    /// Whether `record` is of an object this replica knows was deleted.
    static func isKnownDeleted(_ record: SyncRecord?) -> Bool {
        guard let record else { return false }
        return record.deleted != nil && !record.exists
    }

    /// Notes rows of `table` to remove.
    static func note(_ ids: [SQLValue], table: String, on connection: SQLiteConnection) throws {
        guard !ids.isEmpty else { return }
        let insert = try connection.statement("INSERT OR IGNORE INTO qsdata_sync_reinserted (tableName, id) VALUES (?, ?)")
        for id in ids { try insert.run([.text(table), id]) }
    }

    /// Removes the rows noted, with their lookup rows, unless their object exists again since
    /// (a creation pulled meanwhile). Returns whether anything was noted.
    static func removeNoted(schema: SyncedSchema, on connection: SQLiteConnection) throws -> Bool {
        let noted = try connection.fetchRows("SELECT tableName, id FROM qsdata_sync_reinserted")
        guard !noted.isEmpty else { return false }
        var idsByTable: [String: [SQLValue]] = [:]
        for row in noted where row.count == 2 {
            if case .text(let table) = row[0] { idsByTable[table, default: []].append(row[1]) }
        }
        for (name, ids) in idsByTable.sorted(by: { $0.key < $1.key }) {
            guard let table = schema.tables[name] else { continue }
            let records = try LocalRecord.load(ids, table: table, on: connection)
            let writer = RowWriter(table: table, connection: connection)
            for id in ids where records[id]?.exists != true { try writer.delete(id) }
        }
        try connection.execute("DELETE FROM qsdata_sync_reinserted")
        return true
    }

    /// Records that the next insert of each of `ids` is a creation.
    static func allowCreation(of ids: [SQLValue], table: String, on connection: SQLiteConnection) throws {
        let insert = try connection.statement("INSERT OR IGNORE INTO qsdata_sync_allowed_creations (tableName, id) VALUES (?, ?)")
        for id in ids { try insert.run([.text(table), id]) }
    }

    /// Which of `inserted` (IDs of `table` just inserted) the app allowed to be created; every
    /// one of them has used its allowance.
    static func takeAllowedCreations(_ inserted: [SQLValue], table: String, on connection: SQLiteConnection) throws -> Set<SQLValue> {
        guard !inserted.isEmpty,
              try connection.fetchValue("SELECT EXISTS (SELECT 1 FROM qsdata_sync_allowed_creations)") == .integer(1)
        else { return [] }
        var allowed: Set<SQLValue> = []
        for chunk in inserted.chunked(by: 10_000) {
            let arguments: [SQLValue] = [.text(table), IDList.json(chunk)]
            let condition = "tableName = ? AND id IN (SELECT value FROM json_each(?))"
            allowed.formUnion(try connection.fetchRows("SELECT id FROM qsdata_sync_allowed_creations WHERE \(condition)", arguments).compactMap(\.first))
            try connection.execute("DELETE FROM qsdata_sync_allowed_creations WHERE \(condition)", arguments)
        }
        return allowed
    }
}
