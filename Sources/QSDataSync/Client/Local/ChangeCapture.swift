import QSData

/// Queues every committed change to a synced table for upload: reads the store's change log
/// after the sync's place in it, stamps what changed, and records it in the outbox, in the same
/// transaction (see ``SyncStateTables``).
///
/// Runs in every write transaction of the store just before it commits (its commit hook), so a
/// change is stamped when it is made and queued atomically with it; and before each push and
/// pull, for what other processes and SQL outside a transaction committed meanwhile.
struct ChangeCapture: Sendable {
    let schema: SyncedSchema
    let clock: HybridLogicalClock

    /// How far the sync's place may fall behind over entries of tables that don't sync before it
    /// is moved (moving it costs two statements).
    static let positionSlack: Int64 = 256

    /// What one object had happen to it over the entries read.
    private enum Pending {
        case created
        case deleted
        case changed(Set<String>)
    }

    /// The commit hook passes the app's own transaction as `committing`; the sync's own
    /// transactions pass nil.
    ///
    /// - In the app's transaction, a change to an object's group column throws
    ///   ``QSSyncError/groupChanged(table:id:)`` (the app's write rolls back), and the rows its
    ///   saves inserted again for objects another replica deleted are queued as nothing and noted
    ///   (see ``RowsInsertedAgain``): a row taken back inside the app's write would not reach the
    ///   store's instances and observers.
    /// - In the sync's own, another process's group change is undone, and the noted rows are removed.
    func capture(on connection: SQLiteConnection, committing: QSCommittingTransaction? = nil) throws {
        try queueLoggedChanges(on: connection, refusingGroupChanges: committing != nil, insertedAgain: committing?.rowsInsertedAgain ?? [:])
        if committing == nil, try RowsInsertedAgain.removeNoted(schema: schema, on: connection) {
            // The removal's own log entries are not the app's deletions.
            try skipToEnd(on: connection)
        }
    }

    /// Stamps and queues what the change log holds after the sync's place in it.
    private func queueLoggedChanges(
        on connection: SQLiteConnection, refusingGroupChanges: Bool, insertedAgain: [String: [QSAnyID]]
    ) throws {
        let position = try currentPosition(on: connection)
        let rows = try connection.fetchRows("""
            SELECT c.tableName, c.kind, c.columns, j.value FROM qsdata_changes AS c, json_each(c.ids) AS j
            WHERE c.seq > ? AND c.tableName IN (SELECT value FROM json_each(?)) ORDER BY c.seq
            """, [.integer(position), tableList])
        let last = try lastEntry(on: connection)
        guard !rows.isEmpty else {
            if last - position > Self.positionSlack { try SyncStateTables.setPosition(last, on: connection) }
            return
        }
        // (Rows came, so `last` is past `position`.)
        var pendingByTable: [String: PendingObjects] = [:]
        for row in rows where row.count == 4 {
            guard case .text(let tableName) = row[0], case .text(let kind) = row[1], let table = schema.tables[tableName] else { continue }
            let id = row[3]
            let happened: Pending
            switch kind {
            case "insert": happened = .created
            case "delete": happened = .deleted
            default:
                var parts = Set(table.partNames)
                if case .text(let list) = row[2] { parts.formIntersection(list.split(separator: ",").map(String.init)) }
                guard !parts.isEmpty else { continue }
                happened = .changed(parts)
            }
            pendingByTable[tableName, default: PendingObjects()].note(happened, to: id)
        }
        if !pendingByTable.isEmpty {
            let stamp = try clock.next()
            for (table, pending) in pendingByTable.sorted(by: { $0.key < $1.key }) {
                try record(
                    pending.list, table: schema.tables[table], stamp: stamp, refusingGroupChanges: refusingGroupChanges,
                    insertedAgain: insertedAgain[table] ?? [], on: connection)
            }
            try SyncStateTables.set(.clock, to: .text(clock.reading.text), on: connection)
        }
        try SyncStateTables.setPosition(last, on: connection)
    }

    /// Moves the sync's place to the end of the log without queueing anything: after the sync's
    /// own writes, which merge what came from the server.
    func skipToEnd(on connection: SQLiteConnection) throws {
        try SyncStateTables.setPosition(try lastEntry(on: connection), on: connection)
    }

    /// Queues every row of the synced tables as created: the first time a store syncs.
    func captureEverything(on connection: SQLiteConnection) throws {
        let stamp = try clock.next()
        for table in schema.tableNames {
            try connection.execute(
                "INSERT OR REPLACE INTO qsdata_sync_records (tableName, id, created) SELECT ?, \(quoted("uniqueID")), ? FROM \(quoted(table))",
                [.text(table), .text(stamp.text)])
            try connection.execute(
                "INSERT OR REPLACE INTO qsdata_sync_outbox (tableName, id, part, stamp) SELECT ?, \(quoted("uniqueID")), '+', ? FROM \(quoted(table))",
                [.text(table), .text(stamp.text)])
        }
        for table in schema.tables.values where !table.lists.isEmpty {
            try placeEveryList(of: table, at: stamp, on: connection)
        }
        for table in schema.tables.values { try GroupSpaces.recordEveryGroup(of: table, on: connection) }
        try SyncStateTables.set(.clock, to: .text(clock.reading.text), on: connection)
        try skipToEnd(on: connection)
    }

    /// Gives every child of every list in `table` its list parts, as the creations' stamp set them.
    private func placeEveryList(of table: SyncedTable, at stamp: SyncStamp, on connection: SQLiteConnection) throws {
        let parents = try connection.fetchRows("SELECT \(quoted("uniqueID")) FROM \(quoted(table.name))").compactMap(\.first)
        for chunk in parents.chunked(by: 10_000) {
            for list in table.lists {
                for (parent, children) in try TableRows.children(of: Array(chunk), in: list, on: connection) {
                    var record = SyncRecord(created: stamp)
                    let parts = try place(list.name, of: children, in: &record, at: stamp, table: table, on: connection)
                    try ListItems.save(parts, of: record, parent: parent, table: table.name, on: connection)
                }
            }
        }
    }

    private func record(
        _ pending: [(id: SQLValue, pending: Pending)], table synced: SyncedTable?, stamp: SyncStamp, refusingGroupChanges: Bool,
        insertedAgain: [QSAnyID], on connection: SQLiteConnection
    ) throws {
        guard let synced else { return }
        let table = synced.name
        var records = try LocalRecord.load(pending.map(\.id), table: synced, on: connection)
        let notInsertedAgain = try leavingOutEditsOfObjectsDeletedElsewhere(
            pending, records: records, insertedAgain: insertedAgain, table: table, on: connection)
        let pending = try keepingGroups(notInsertedAgain, of: synced, refusing: refusingGroupChanges, on: connection)
        let saved = try savedLists(of: pending, in: synced, on: connection)
        let clearOutbox = try connection.statement("DELETE FROM qsdata_sync_outbox WHERE tableName = ? AND id = ?")
        let queue = try connection.statement("INSERT OR REPLACE INTO qsdata_sync_outbox (tableName, id, part, stamp) VALUES (?, ?, ?, ?)")
        let stampText = SQLValue.text(stamp.text)
        for (id, happened) in pending {
            var record = records[id] ?? SyncRecord()
            var listParts: [SyncListPart] = []
            switch happened {
            case .created:
                record.created = stamp
                for name in synced.columnNames { record.stamps[name] = stamp }
                for list in synced.lists {
                    listParts += try place(list.name, of: saved[list.name]?[id] ?? [], in: &record, at: stamp, table: synced, on: connection)
                }
                try clearOutbox.run([.text(table), id])
                try queue.run([.text(table), id, .text(OutboxPart.creation), stampText])
            case .deleted:
                record = SyncRecord(created: record.created, deleted: stamp)
                try ListItems.forget(parent: id, table: table, on: connection)
                try BlobColumns.forget(table, id: id, on: connection)
                try clearOutbox.run([.text(table), id])
                try queue.run([.text(table), id, .text(OutboxPart.deletion), stampText])
            case .changed(let parts):
                for part in parts.sorted() {
                    if synced.list(named: part) != nil {
                        listParts += try place(part, of: saved[part]?[id] ?? [], in: &record, at: stamp, table: synced, on: connection)
                    } else {
                        record.stamps[part] = stamp
                        try queue.run([.text(table), id, .text(part), stampText])
                        // Bytes the app wrote itself are not to be overwritten by a download.
                        if synced.blobs[part] != nil { try BlobColumns.forget(table, id: id, property: part, on: connection) }
                    }
                }
                for part in listParts { try queue.run([.text(table), id, .text(part.name), stampText]) }
            }
            records[id] = record
            try LocalRecord.save(record, id: id, table: table, on: connection)
            try ListItems.save(listParts, of: record, parent: id, table: table, on: connection)
        }
        if synced.groupColumn != nil {
            let created = pending.compactMap { id, happened -> SQLValue? in if case .created = happened { id } else { nil } }
            let groups = try GroupSpaces.groups(of: created, in: synced, on: connection)
            for (space, ids) in Dictionary(grouping: created, by: { groups[$0] }) {
                try GroupSpaces.record(space, of: ids, table: table, on: connection)
            }
        }
    }

    /// `pending` without the rows the store inserted again for objects another replica deleted:
    /// they are noted for removal (see ``RowsInsertedAgain``). (An edit of such a row before it
    /// is removed is queued, and lost to the deletion on the server.)
    private func leavingOutEditsOfObjectsDeletedElsewhere(
        _ pending: [(id: SQLValue, pending: Pending)], records: [SQLValue: SyncRecord], insertedAgain: [QSAnyID], table: String,
        on connection: SQLiteConnection
    ) throws -> [(id: SQLValue, pending: Pending)] {
        guard !insertedAgain.isEmpty else { return pending }
        let leftOut = insertedAgain.map(\.sqlValue).filter { id in
            RowsInsertedAgain.isEditOfObjectDeletedElsewhere(records[id], replica: clock.replica)
        }
        guard !leftOut.isEmpty else { return pending }
        try RowsInsertedAgain.note(leftOut, table: table, on: connection)
        let leftOutSet = Set(leftOut)
        return pending.filter { !leftOutSet.contains($0.id) }
    }

    /// `pending` without changes to objects' group columns: an object stays in the group it was
    /// made in. Refused (the app's own save fails), or undone (another writer's).
    private func keepingGroups(
        _ pending: [(id: SQLValue, pending: Pending)], of table: SyncedTable, refusing: Bool, on connection: SQLiteConnection
    ) throws -> [(id: SQLValue, pending: Pending)] {
        guard let column = table.groupColumn else { return pending }
        let changed = pending.compactMap { id, happened -> SQLValue? in
            if case .changed(let parts) = happened, parts.contains(column) { id } else { nil }
        }
        guard !changed.isEmpty else { return pending }
        let groups = try GroupSpaces.groups(of: changed, in: table, on: connection)
        let recorded = try GroupSpaces.recordedSpaces(of: changed, table: table.name, on: connection)
        let undo = try connection.statement("UPDATE \(quoted(table.name)) SET \(quoted(column)) = ? WHERE \(quoted("uniqueID")) = ?")
        for id in changed where groups[id] != recorded[id] {
            if refusing { throw QSSyncError.groupChanged(table: table.name, id: SyncID(sqlValue: id)?.json ?? "\(id)") }
            try undo.run([recorded[id].map { .text($0) } ?? .null, id])
        }
        return pending.compactMap { id, happened in
            guard case .changed(var parts) = happened, parts.contains(column) else { return (id, happened) }
            parts.remove(column)
            return parts.isEmpty ? nil : (id, .changed(parts))
        }
    }

    /// The children each pending object lists now, by relationship, for the relationships that changed.
    private func savedLists(of pending: [(id: SQLValue, pending: Pending)], in table: SyncedTable, on connection: SQLiteConnection) throws -> [String: [SQLValue: [SyncID]]] {
        var lists: [String: [SQLValue: [SyncID]]] = [:]
        for list in table.lists {
            let ids = pending.compactMap { id, happened -> SQLValue? in
                switch happened {
                case .created: id
                case .changed(let parts): parts.contains(list.name) ? id : nil
                case .deleted: nil
                }
            }
            guard !ids.isEmpty else { continue }
            lists[list.name] = try TableRows.children(of: ids, in: list, on: connection)
        }
        return lists
    }

    /// Records, at `stamp`, how the app's order of `list` differs from the one sync knew.
    /// Children listed that this replica doesn't hold (deleted, or still to arrive) are not in
    /// the app's order, and are not taken out for that.
    private func place(
        _ list: String, of saved: [SyncID], in record: inout SyncRecord, at stamp: SyncStamp, table: SyncedTable, on connection: SQLiteConnection
    ) throws -> [SyncListPart] {
        var known = ListItems.listed(list, in: record)
        if let childTable = table.childTables[list], !known.isEmpty {
            let held = try TableRows.existing(known.map(\.child), in: childTable, on: connection)
            known = known.filter { held.contains($0.child) }
        }
        let edit = ListEdit(known: known, saved: saved, replica: clock.replica)
        return record.apply(edit, to: list, at: stamp)
    }

    /// The objects of one table the entries named, in the order first named, each with what
    /// happened to it over all of them.
    private struct PendingObjects {
        private var order: [SQLValue] = []
        private var byID: [SQLValue: Pending] = [:]

        var list: [(id: SQLValue, pending: Pending)] {
            order.compactMap { id in byID[id].map { (id, $0) } }
        }

        /// A creation or deletion stands for everything before it; changes after a creation are
        /// part of it, and changes after a deletion (its lookup rows removed after its row) are
        /// nothing.
        mutating func note(_ later: Pending, to id: SQLValue) {
            guard let earlier = byID[id] else {
                order.append(id)
                byID[id] = later
                return
            }
            switch (earlier, later) {
            case (.created, .changed), (.deleted, .changed): break
            case (.changed(let first), .changed(let second)): byID[id] = .changed(first.union(second))
            default: byID[id] = later
            }
        }
    }

    private var tableList: SQLValue {
        .text("[" + schema.tableNames.map { SyncID.string($0).json }.joined(separator: ",") + "]")
    }

    private func currentPosition(on connection: SQLiteConnection) throws -> Int64 {
        if case .integer(let seq) = try SyncStateTables.value(.position, on: connection) { return seq }
        return 0
    }

    private func lastEntry(on connection: SQLiteConnection) throws -> Int64 {
        // The last number the log gave out, even if pruning removed its entry since.
        if case .integer(let seq) = try connection.fetchValue("SELECT seq FROM sqlite_sequence WHERE name = 'qsdata_changes'") { return seq }
        return 0
    }
}

/// The outbox's names for a creation and a deletion (a property or relationship goes by its name).
enum OutboxPart {
    static let creation = "+"
    static let deletion = "-"
}
