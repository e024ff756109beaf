import QSData

/// The sync's own tables in the store's file, beside the app's:
///
/// - `qsdata_sync_state`: this replica's ID, its clock's last reading, its place in the store's
///   change log, and the server's token for the next pull.
/// - `qsdata_sync_records`: each synced object's stamps (see ``LocalRecord``).
/// - `qsdata_sync_outbox`: what waits to be pushed, one row per object and part (a property, a
///   list part, `+` for a creation, `-` for a deletion), with the stamp it was queued at and the
///   number of the last push that sent it. Editing one title a thousand times leaves one row.
/// - `qsdata_sync_kept_parts`: what the server sent that this version of the model doesn't
///   sync, kept for a later version (see ``KeptParts``).
/// - `qsdata_sync_blob_downloads`: blob columns whose bytes are still to be downloaded (see
///   ``BlobColumns``).
/// - `qsdata_sync_list_items`: each synced list's children, listed or taken out, with their
///   position keys and stamps (see ``ListItems``).
/// - `qsdata_sync_groups`: the groups this replica syncs, with the server's token for each
///   one's next pull (see ``GroupSpaces``).
/// - `qsdata_sync_inserted_again`: rows the store inserted again for objects another replica
///   deleted, to remove (see ``RowsInsertedAgain``).
///
/// They are written in the same transactions as the changes they record, so nothing is lost or
/// sent twice if the app stops at any moment.
enum SyncStateTables {
    static let creationSQL = """
        CREATE TABLE IF NOT EXISTS qsdata_sync_state (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS qsdata_sync_records (
            tableName TEXT NOT NULL, id NOT NULL, created TEXT, deleted TEXT, stamps TEXT,
            PRIMARY KEY (tableName, id)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS qsdata_sync_outbox (
            tableName TEXT NOT NULL, id NOT NULL, part TEXT NOT NULL, stamp TEXT NOT NULL, sentIn INTEGER,
            PRIMARY KEY (tableName, id, part)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS qsdata_sync_list_items (
            tableName TEXT NOT NULL, parentID NOT NULL, list TEXT NOT NULL, childID NOT NULL,
            listed INTEGER, listedStamp TEXT, position TEXT, positionStamp TEXT,
            PRIMARY KEY (tableName, parentID, list, childID)
        ) WITHOUT ROWID;
        """

    /// Creates the tables when missing, and adds what files made by older versions lack.
    static func create(on connection: SQLiteConnection) throws {
        try connection.executeScript(creationSQL)
        try connection.executeScript(KeptParts.creationSQL)
        try connection.executeScript(BlobColumns.creationSQL)
        try connection.executeScript(RowsInsertedAgain.creationSQL)
        try GroupSpaces.create(on: connection)
        try addColumnIfMissing("sentIn", "INTEGER", to: "qsdata_sync_outbox", on: connection)
        try addColumnIfMissing("space", "TEXT", to: "qsdata_sync_kept_parts", on: connection)
        // The few parts sent and not yet answered, found without reading the whole queue.
        try connection.execute("CREATE INDEX IF NOT EXISTS qsdata_sync_outbox_sent ON qsdata_sync_outbox (sentIn) WHERE sentIn IS NOT NULL")
    }

    /// Adds a column a file made by an older version lacks.
    static func addColumnIfMissing(_ column: String, _ type: String, to table: String, on connection: SQLiteConnection) throws {
        let columns = try connection.fetchRows("SELECT name FROM pragma_table_info(?)", [.text(table)])
        if !columns.contains([.text(column)]) {
            try connection.execute("ALTER TABLE \(quoted(table)) ADD COLUMN \(quoted(column)) \(type)")
        }
    }

    /// The name the sync's place in the change log goes by in `qsdata_change_readers`, where it
    /// keeps the log's entries from being removed before it has read them.
    static let logReaderName = "qsdata-sync"

    enum Key: String {
        case replica, clock, position, token
        /// The synced names as the file last synced them (see ``SchemaHistory``).
        case schema
        /// The number of the last push made.
        case push
    }

    static func value(_ key: Key, on connection: SQLiteConnection) throws -> SQLValue? {
        try connection.fetchValue("SELECT value FROM qsdata_sync_state WHERE key = ?", [.text(key.rawValue)])
    }

    static func text(_ key: Key, on connection: SQLiteConnection) throws -> String? {
        if case .text(let text) = try value(key, on: connection) { return text }
        return nil
    }

    static func set(_ key: Key, to value: SQLValue, on connection: SQLiteConnection) throws {
        try connection.execute("INSERT OR REPLACE INTO qsdata_sync_state (key, value) VALUES (?, ?)", [.text(key.rawValue), value])
    }

    /// Records the sync's place in the change log, for itself and for pruning. Its `seenAt` is
    /// far in the future: a store that prunes never treats the sync as gone, however long the
    /// app was away, so no change waits for upload in an entry that was removed.
    static func setPosition(_ seq: Int64, on connection: SQLiteConnection) throws {
        try set(.position, to: .integer(seq), on: connection)
        try connection.execute(
            "INSERT OR REPLACE INTO qsdata_change_readers (reader, seq, seenAt) VALUES (?, ?, 1e300)",
            [.text(logReaderName), .integer(seq)])
    }

    /// Stops holding back the change log's pruning (the sync is detached for good).
    static func forgetPosition(on connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM qsdata_change_readers WHERE reader = ?", [.text(logReaderName)])
        try connection.execute("DELETE FROM qsdata_sync_state WHERE key = ?", [.text(Key.position.rawValue)])
    }
}
