import QSData

/// What a full pull named: every object, and the list children each parent's record mentions.
struct PulledInventory: Sendable {
    var objects: [String: Set<SyncID>] = [:]
    /// By table and parent, the names of the membership parts received.
    var memberships: [String: [SyncID: Set<String>]] = [:]

    mutating func note(_ changes: [SyncChange]) {
        for change in changes {
            objects[change.table, default: []].formUnion(change.ids)
            let names = change.values.keys.filter { SyncListPart(name: $0)?.kind == .membership }
            guard !names.isEmpty else { continue }
            for id in change.ids { memberships[change.table, default: [:]][id, default: []].formUnion(names) }
        }
    }
}

/// After a full pull: removes here what the server no longer holds, unless it waits to be
/// pushed. The server removes a deleted object's record, and a list child's removal, once
/// every active replica has pulled it; a replica that was away longer pulls everything, and
/// what it still has that the pull did not name was deleted elsewhere.
struct ResyncCleanup: Sendable {
    let schema: SyncedSchema

    /// Looks only at `space`'s objects (a group's ID; nil for the account's own): the full
    /// pull was of that space. Returns how many objects were removed.
    func run(keeping inventory: PulledInventory, space: String?, on connection: SQLiteConnection) throws -> Int {
        var removed = 0
        for table in schema.tableNames.compactMap({ schema.tables[$0] }) {
            let waiting = try waitingParts(of: table, on: connection)
            let named = inventory.objects[table.name] ?? []
            let writer = RowWriter(table: table, connection: connection)
            let held = try heldObjects(of: table, in: space, on: connection)
            var kept: [SQLValue] = []
            for id in held {
                guard let syncID = SyncID(sqlValue: id) else { continue }
                if named.contains(syncID) || waiting[id]?.contains(OutboxPart.creation) == true {
                    kept.append(id)
                    continue
                }
                try writer.delete(id)
                try writer.forgetOutbox(of: id)
                try ListItems.forget(parent: id, table: table.name, on: connection)
                try connection.statement("DELETE FROM qsdata_sync_records WHERE tableName = ? AND id = ?").run([.text(table.name), id])
                removed += 1
            }
            if !table.lists.isEmpty {
                try takeOutCollectedChildren(of: kept, in: table, inventory: inventory, waiting: waiting, on: connection)
            }
        }
        return removed
    }

    /// Children a kept parent lists here whose membership the pull did not mention, and which
    /// don't wait to be pushed: their removal was collected.
    private func takeOutCollectedChildren(
        of parents: [SQLValue], in table: SyncedTable, inventory: PulledInventory, waiting: [SQLValue: Set<String>], on connection: SQLiteConnection
    ) throws {
        var records = try LocalRecord.load(parents, table: table, on: connection)
        let writer = RowWriter(table: table, connection: connection)
        for id in parents {
            guard var record = records[id], let syncID = SyncID(sqlValue: id) else { continue }
            let received = inventory.memberships[table.name]?[syncID] ?? []
            var takenOut: [SyncListPart] = []
            for list in table.lists {
                for (child, _) in ListItems.listed(list.name, in: record) {
                    let part = SyncListPart(list: list.name, child: child, kind: .membership)
                    guard !received.contains(part.name), waiting[id]?.contains(part.name) != true else { continue }
                    record.values[part.name] = .null
                    takenOut.append(part)
                }
            }
            guard !takenOut.isEmpty else { continue }
            records[id] = record
            try ListItems.save(takenOut, of: record, parent: id, table: table.name, on: connection)
            for list in Set(takenOut.map(\.list)).sorted() { try writer.rewriteList(list, of: id, from: record) }
        }
    }

    /// The IDs of `table`'s rows whose objects are in `space`.
    private func heldObjects(of table: SyncedTable, in space: String?, on connection: SQLiteConnection) throws -> [SQLValue] {
        guard table.groupColumn != nil else {
            // A table that shares nothing holds only the account's own objects.
            return space == nil ? try connection.fetchRows("SELECT \(quoted("uniqueID")) FROM \(quoted(table.name))").compactMap(\.first) : []
        }
        return try connection.fetchRows(
            "SELECT t.\(quoted("uniqueID")) FROM \(quoted(table.name)) AS t LEFT JOIN qsdata_sync_records AS r "
                + "ON r.tableName = ? AND r.id = t.\(quoted("uniqueID")) WHERE r.space IS ?",
            [.text(table.name), space.map { .text($0) } ?? .null]
        ).compactMap(\.first)
    }

    /// What waits to be pushed of each object of `table`: part names by ID.
    private func waitingParts(of table: SyncedTable, on connection: SQLiteConnection) throws -> [SQLValue: Set<String>] {
        var parts: [SQLValue: Set<String>] = [:]
        for row in try connection.fetchRows("SELECT id, part FROM qsdata_sync_outbox WHERE tableName = ?", [.text(table.name)]) where row.count == 2 {
            if case .text(let part) = row[1] { parts[row[0], default: []].insert(part) }
        }
        return parts
    }
}
