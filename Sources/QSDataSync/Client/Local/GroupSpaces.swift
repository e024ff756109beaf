import QSData

/// Where each synced object syncs: with the account's own devices (its *space* is NULL), or
/// with every member's of the group its type's `syncGroup` column names (its space is that
/// group's ID). The server keeps each space's objects apart, with a sequence of its own, so a
/// replica pushes and pulls each space on its own, with a token for each.
///
/// - `qsdata_sync_records.space`: each object's space, set when it is made (here, or pulled)
///   and kept past its deletion, which is sent to the same space.
/// - `qsdata_sync_groups`: the groups this replica syncs, each with its token for the next pull.
///
/// An object stays in the group it was made in: a save that changes its group column is
/// refused (``QSSyncError/groupChanged(table:id:)``). When the account leaves a group, or is
/// taken out, the group's objects are removed here (``remove(_:schema:on:)``): they are no
/// longer this account's to hold.
enum GroupSpaces {
    /// Creates the groups table and the records' space column when missing.
    static func create(on connection: SQLiteConnection) throws {
        try connection.execute("CREATE TABLE IF NOT EXISTS qsdata_sync_groups (groupID TEXT PRIMARY KEY, token TEXT) WITHOUT ROWID")
        try SyncStateTables.addColumnIfMissing("space", "TEXT", to: "qsdata_sync_records", on: connection)
        try connection.execute("CREATE INDEX IF NOT EXISTS qsdata_sync_records_space ON qsdata_sync_records (space) WHERE space IS NOT NULL")
    }

    /// A condition on an outbox row `o`: its object is in the space bound to the one `?`.
    static let outboxRowInSpace = "(SELECT r.space FROM qsdata_sync_records AS r WHERE r.tableName = o.tableName AND r.id = o.id) IS ?"

    /// The group column's value of each of `ids` that names one, read from the table.
    static func groups(of ids: [SQLValue], in table: SyncedTable, on connection: SQLiteConnection) throws -> [SQLValue: String] {
        guard let column = table.groupColumn, !ids.isEmpty else { return [:] }
        var groups: [SQLValue: String] = [:]
        for chunk in ids.chunked(by: 10_000) {
            let rows = try connection.fetchRows(
                "SELECT \(quoted("uniqueID")), \(quoted(column)) FROM \(quoted(table.name)) WHERE \(quoted("uniqueID")) IN (SELECT value FROM json_each(?))",
                [IDList.json(chunk)])
            for row in rows where row.count == 2 { if case .text(let group) = row[1] { groups[row[0]] = group } }
        }
        return groups
    }

    /// The space each of `ids` was recorded in, where it is a group's.
    static func recordedSpaces(of ids: [SQLValue], table: String, on connection: SQLiteConnection) throws -> [SQLValue: String] {
        var spaces: [SQLValue: String] = [:]
        for chunk in ids.chunked(by: 10_000) {
            let rows = try connection.fetchRows(
                "SELECT id, space FROM qsdata_sync_records WHERE tableName = ? AND space IS NOT NULL AND id IN (SELECT value FROM json_each(?))",
                [.text(table), IDList.json(chunk)])
            for row in rows where row.count == 2 { if case .text(let space) = row[1] { spaces[row[0]] = space } }
        }
        return spaces
    }

    /// Records that `ids` (whose records exist) are in `space`.
    static func record(_ space: String?, of ids: [SQLValue], table: String, on connection: SQLiteConnection) throws {
        for chunk in ids.chunked(by: 10_000) {
            try connection.execute(
                "UPDATE qsdata_sync_records SET space = ? WHERE tableName = ? AND space IS NOT ? AND id IN (SELECT value FROM json_each(?))",
                [space.map { .text($0) } ?? .null, .text(table), space.map { .text($0) } ?? .null, IDList.json(chunk)])
        }
    }

    /// Records every object of `table` in the group its column names: the first time a file syncs.
    static func recordEveryGroup(of table: SyncedTable, on connection: SQLiteConnection) throws {
        guard let column = table.groupColumn else { return }
        try connection.execute("""
            UPDATE qsdata_sync_records SET space = (SELECT t.\(quoted(column)) FROM \(quoted(table.name)) AS t WHERE t.\(quoted("uniqueID")) = qsdata_sync_records.id)
            WHERE tableName = ?
            """, [.text(table.name)])
    }

    /// The groups this replica syncs, each with its token for the next pull (nil before the first).
    static func syncedGroups(on connection: SQLiteConnection) throws -> [(group: String, token: String?)] {
        try connection.fetchRows("SELECT groupID, token FROM qsdata_sync_groups ORDER BY groupID").compactMap { row in
            guard row.count == 2, case .text(let group) = row[0] else { return nil }
            if case .text(let token) = row[1] { return (group, token) }
            return (group, nil)
        }
    }

    /// The groups objects here are recorded in (made here in a group, or pulled from one).
    static func groupsHeld(on connection: SQLiteConnection) throws -> Set<String> {
        Set(try connection.fetchRows("SELECT DISTINCT space FROM qsdata_sync_records WHERE space IS NOT NULL").compactMap { row in
            if case .text(let group) = row.first { group } else { nil }
        })
    }

    /// Starts syncing `group` (its first pull will be of everything).
    static func add(_ group: String, on connection: SQLiteConnection) throws {
        try connection.execute("INSERT OR IGNORE INTO qsdata_sync_groups (groupID, token) VALUES (?, NULL)", [.text(group)])
    }

    static func setToken(_ token: String?, of group: String, on connection: SQLiteConnection) throws {
        try connection.execute(
            "INSERT OR REPLACE INTO qsdata_sync_groups (groupID, token) VALUES (?, ?)", [.text(group), token.map { .text($0) } ?? .null])
    }

    /// Removes here every object of `group`, and what waits to be pushed of them, and stops
    /// syncing it. (Written as sync's own change: nothing is sent for it.) Returns how many
    /// objects were removed.
    static func remove(_ group: String, schema: SyncedSchema, on connection: SQLiteConnection) throws -> Int {
        var removed = 0
        for table in schema.tableNames.compactMap({ schema.tables[$0] }) {
            let ids = try connection.fetchRows(
                "SELECT id FROM qsdata_sync_records WHERE space = ? AND tableName = ?", [.text(group), .text(table.name)]
            ).compactMap(\.first)
            let writer = RowWriter(table: table, connection: connection)
            let held = try TableRows.existing(ids.compactMap(SyncID.init(sqlValue:)), in: table.name, on: connection)
            for id in ids {
                if let syncID = SyncID(sqlValue: id), held.contains(syncID) {
                    try writer.delete(id)
                    removed += 1
                }
                try writer.forgetOutbox(of: id)
                try ListItems.forget(parent: id, table: table.name, on: connection)
                try BlobColumns.forget(table.name, id: id, on: connection)
            }
            try connection.execute("DELETE FROM qsdata_sync_records WHERE space = ? AND tableName = ?", [.text(group), .text(table.name)])
        }
        try connection.execute("DELETE FROM qsdata_sync_groups WHERE groupID = ?", [.text(group)])
        return removed
    }
}
