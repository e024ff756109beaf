import QSData

extension RemoteApplier {
    /// Before `id` is inserted into a table with a unique key: when another object here holds
    /// its key, the one created later is deleted (and its deletion sent, as this replica's
    /// edit). Returns whether `id` is the one that stays, and so is to be inserted.
    func makeRoom(
        for id: SQLValue, created: SyncStamp?, values: [String: SyncValue], in table: SyncedTable, on connection: SQLiteConnection,
        batch: inout Batch
    ) throws -> Bool {
        if batch.keys[table.name] == nil { batch.keys[table.name] = try UniqueKeys(of: table, on: connection) }
        guard let other = batch.keys[table.name]?.holder(of: values, other: id) else { return true }
        let otherCreated = try LocalRecord.load([other], table: table, on: connection)[other]?.created
        if UniqueKeys.stays(id, created: created, over: other, created: otherCreated) {
            try deleteDuplicate(other, of: table, on: connection)
            batch.duplicates.append((table.name, other, id))
            return true
        }
        try deleteDuplicate(id, of: table, on: connection)
        batch.duplicates.append((table.name, id, other))
        return false
    }

    /// Deletes `duplicate` here as an edit of this replica's, pushed like one.
    private func deleteDuplicate(_ duplicate: SQLValue, of table: SyncedTable, on connection: SQLiteConnection) throws {
        let held = try LocalRecord.load([duplicate], table: table, on: connection)[duplicate]
        let stamp = try clock.next()
        try LocalRecord.save(SyncRecord(created: held?.created, deleted: stamp), id: duplicate, table: table.name, on: connection)
        try ListItems.forget(parent: duplicate, table: table.name, on: connection)
        let writer = RowWriter(table: table, connection: connection)
        try writer.forgetOutbox(of: duplicate)
        try Outbox.queue([OutboxPart.deletion], of: duplicate, in: table.name, at: stamp, on: connection)
        try writer.delete(duplicate)
    }

    /// Makes every list that names `loser` name `winner` in its place, where it doesn't already,
    /// as this replica's edit.
    func redirectLists(from loser: SQLValue, to winner: SQLValue, childTable: String, on connection: SQLiteConnection) throws {
        guard let loserID = SyncID(sqlValue: loser), let winnerID = SyncID(sqlValue: winner) else { return }
        for table in schema.tableNames.compactMap({ schema.tables[$0] }) {
            for list in table.lists where table.childTables[list.name] == childTable {
                let parents = try connection.fetchRows(
                    "SELECT parentID FROM qsdata_sync_list_items WHERE tableName = ? AND list = ? AND childID = ? AND listed IS NOT NULL",
                    [.text(table.name), .text(list.name), loser]).compactMap(\.first)
                let writer = RowWriter(table: table, connection: connection)
                for (parent, var record) in try LocalRecord.load(parents, table: table, on: connection) {
                    var edit = ListEdit(removed: [loserID])
                    if record.values[SyncListPart(list: list.name, child: winnerID, kind: .membership).name] != SyncListPart.listed {
                        // The one kept takes the duplicate's place.
                        let place = record.values[SyncListPart(list: list.name, child: loserID, kind: .position).name]
                        let key: String = if case .text(let text) = place { text } else { "" }
                        edit.added = [winnerID]
                        edit.positions = [winnerID: key]
                    }
                    let stamp = try clock.next()
                    let parts = record.apply(edit, to: list.name, at: stamp)
                    try ListItems.save(parts, of: record, parent: parent, table: table.name, on: connection)
                    try Outbox.queue(parts.map(\.name), of: parent, in: table.name, at: stamp, on: connection)
                    try writer.rewriteList(list.name, of: parent, from: record)
                }
            }
        }
    }
}
