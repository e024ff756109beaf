import QSData

/// Rows the store inserted again for objects another replica deleted: the app saved an instance
/// it still held when the deletion arrived (see ``QSCommittingTransaction/rowsInsertedAgain``).
/// A delete wins over every edit, so such a row is not a creation: ``ChangeCapture`` queues
/// nothing of its insert and notes it in `qsdata_sync_inserted_again`, and
/// the sync's next transaction of its own removes it, so that the store's instances and
/// observers hear of it as a change from sync.
///
/// Only such an instance: a new instance with the uniqueID of a deleted object creates it again
/// (an app whose uniqueIDs come from content, such as a feed's address, does that on purpose),
/// and so does the app saving an instance of an object it deleted itself (an undo).
enum RowsInsertedAgain {
    static let creationSQL = """
        CREATE TABLE IF NOT EXISTS qsdata_sync_inserted_again (tableName TEXT NOT NULL, id NOT NULL, PRIMARY KEY (tableName, id)) WITHOUT ROWID;
        """

    /// Whether a row inserted again for `record` is an edit of an object another replica
    /// deleted, rather than a creation.
    static func isEditOfObjectDeletedElsewhere(_ record: SyncRecord?, replica: SyncReplicaID) -> Bool {
        guard let record, let deleted = record.deleted, !record.exists else { return false }
        return deleted.replica != replica
    }

    /// Notes rows of `table` to remove.
    static func note(_ ids: [SQLValue], table: String, on connection: SQLiteConnection) throws {
        guard !ids.isEmpty else { return }
        let insert = try connection.statement("INSERT OR IGNORE INTO qsdata_sync_inserted_again (tableName, id) VALUES (?, ?)")
        for id in ids { try insert.run([.text(table), id]) }
    }

    /// Removes the rows noted, with their lookup rows, unless their object exists again since (a
    /// creation pulled meanwhile). Returns whether any was noted.
    static func removeNoted(schema: SyncedSchema, on connection: SQLiteConnection) throws -> Bool {
        let noted = try connection.fetchRows("SELECT tableName, id FROM qsdata_sync_inserted_again")
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
        try connection.execute("DELETE FROM qsdata_sync_inserted_again")
        return true
    }
}
