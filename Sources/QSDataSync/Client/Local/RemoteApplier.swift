import QSData

/// Merges changes pulled from the server into the store: each object's record with
/// ``SyncRecord/merge(_:)``, then its row and lookup rows to what won. Runs inside a write
/// transaction of the store's (as the app's own SQL does), so held instances, observers and
/// live queries hear of it as a change from sync.
struct RemoteApplier: Sendable {
    let schema: SyncedSchema
    let clock: HybridLogicalClock

    /// What applying a pull did.
    struct Outcome: Sendable, Equatable {
        /// Objects whose record changed.
        var applied = 0
        /// Objects created here that lacked values their table requires (a change arrived for an
        /// object this replica never had, without its creation): left until the creation comes.
        var incomplete = 0
        /// Tables the server sent that this model doesn't sync.
        var unknownTables: Set<String> = []
    }

    func apply(_ changes: [SyncChange], on connection: SQLiteConnection) throws -> Outcome {
        var outcome = Outcome()
        for change in changes {
            guard let table = schema.tables[change.table] else {
                outcome.unknownTables.insert(change.table)
                continue
            }
            let incoming = change.record
            if let latest = incoming.latestStamp { clock.observe(latest) }
            let ids = change.ids.filter { $0.fits(table.uniqueIDType) }.map(\.sqlValue)
            try apply(incoming, to: ids, of: table, on: connection, outcome: &outcome)
        }
        return outcome
    }

    private func apply(_ incoming: SyncRecord, to ids: [SQLValue], of table: SyncedTable, on connection: SQLiteConnection, outcome: inout Outcome) throws {
        var records = try LocalRecord.load(ids, table: table, on: connection)
        let existing = try existingRows(ids, of: table, on: connection)
        let writer = RowWriter(table: table, connection: connection)
        let lists = WholeLists(incoming: incoming, table: table)
        var adopted: [SQLValue: [SyncListPart]] = [:]
        for list in lists.touched {
            let children = try TableRows.children(of: ids.filter(existing.contains), in: list, on: connection)
            for (id, saved) in children {
                var record = records[id] ?? SyncRecord()
                adopted[id, default: []] += WholeLists.adopt(saved, as: list.name, in: &record)
                records[id] = record
            }
        }
        for id in ids {
            var record = records[id] ?? SyncRecord()
            let merge = record.merge(lists.record(for: record))
            guard merge.changedAnything else { continue }
            outcome.applied += 1
            try LocalRecord.save(record, id: id, table: table.name, on: connection)
            if !merge.exists {
                // Deleted, here too; nothing of it waits to be pushed any more. Its lookup rows go
                // even if this replica never had its row: a list that arrived before the deletion
                // may name it.
                try writer.forgetOutbox(of: id)
                try ListItems.forget(parent: id, table: table.name, on: connection)
                if existing.contains(id) || merge.tookDeletion { try writer.delete(id) }
                continue
            }
            let listParts = merge.tookProperties.compactMap(SyncListPart.init(name:))
            try ListItems.save(listParts + (adopted[id] ?? []), of: record, parent: id, table: table.name, on: connection)
            try writer.forgetOutbox(of: id, parts: merge.tookProperties + (merge.tookCreation ? [OutboxPart.creation] : []))
            let columns = merge.tookProperties.compactMap { name in
                table.column(named: name) != nil ? incoming.values[name].map { (name, $0) } : nil
            }
            let changedLists = Set(listParts.map(\.list))
            if existing.contains(id) {
                try writer.update(id, with: columns)
            } else if try !writer.insert(id, with: columns) {
                outcome.incomplete += 1
                continue
            }
            for name in changedLists.sorted() { try writer.rewriteList(name, of: id, from: record) }
        }
    }

    private func existingRows(_ ids: [SQLValue], of table: SyncedTable, on connection: SQLiteConnection) throws -> Set<SQLValue> {
        var existing: Set<SQLValue> = []
        for chunk in ids.chunked(by: 10_000) {
            let rows = try connection.fetchRows(
                "SELECT \(quoted("uniqueID")) FROM \(quoted(table.name)) WHERE \(quoted("uniqueID")) IN (SELECT value FROM json_each(?))",
                [IDList.json(chunk)])
            for row in rows { if let id = row.first { existing.insert(id) } }
        }
        return existing
    }
}

/// Writes merged values into one synced table's rows and lookup rows.
private struct RowWriter {
    let table: SyncedTable
    let connection: SQLiteConnection

    func update(_ id: SQLValue, with values: [(String, SyncValue)]) throws {
        let columns = values.compactMap { name, value in
            table.column(named: name).flatMap { column in value.column(of: column.type).map { (name, $0) } }
        }
        guard !columns.isEmpty else { return }
        let assignments = columns.map { "\(quoted($0.0)) = ?" }.joined(separator: ", ")
        try connection.statement("UPDATE \(quoted(table.name)) SET \(assignments) WHERE \(quoted("uniqueID")) = ?")
            .run(columns.map(\.1) + [id])
    }

    /// Inserts the row; false when its table requires a value the change lacks.
    func insert(_ id: SQLValue, with values: [(String, SyncValue)]) throws -> Bool {
        let columns = values.compactMap { name, value in
            table.column(named: name).flatMap { column in value.column(of: column.type).map { (name, $0) } }
        }
        let names = ([quoted("uniqueID")] + columns.map { quoted($0.0) }).joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
        do {
            try connection.statement("INSERT INTO \(quoted(table.name)) (\(names)) VALUES (\(marks))").run([id] + columns.map(\.1))
        } catch let error as SQLiteError where error.isConstraintViolation {
            return false
        }
        return true
    }

    /// Deletes the row and every lookup row naming it.
    func delete(_ id: SQLValue) throws {
        try connection.statement("DELETE FROM \(quoted(table.name)) WHERE \(quoted("uniqueID")) = ?").run([id])
        for reference in table.parentReferences {
            try connection.statement("DELETE FROM \(quoted(reference.lookupTable)) WHERE \(quoted(reference.parentIDColumn)) = ?").run([id])
        }
        for reference in table.childReferences {
            try connection.statement("DELETE FROM \(quoted(reference.lookupTable)) WHERE \(quoted(reference.childIDColumn)) = ?").run([id])
        }
    }

    /// Takes out what waits to be pushed of the object: all of it, or the parts named.
    func forgetOutbox(of id: SQLValue, parts: [String]? = nil) throws {
        guard let parts else {
            return try connection.statement("DELETE FROM qsdata_sync_outbox WHERE tableName = ? AND id = ?").run([.text(table.name), id])
        }
        let remove = try connection.statement("DELETE FROM qsdata_sync_outbox WHERE tableName = ? AND id = ? AND part = ?")
        for part in parts { try remove.run([.text(table.name), id, .text(part)]) }
    }

    /// Rewrites the lookup rows of `list` to the children `record` lists, in their keys' order,
    /// leaving out children this replica knows were deleted: a device that added a child another
    /// deleted still lists it. (A child deleted later takes its lookup rows with it, so every
    /// replica ends with the same rows.)
    func rewriteList(_ list: String, of id: SQLValue, from record: SyncRecord) throws {
        guard let relationship = table.list(named: list) else { return }
        let listed = ListItems.listed(list, in: record).map(\.child)
        let deleted = try deletedIDs(listed, in: table.childTables[list], of: relationship)
        let lookup = quoted(relationship.table), parent = quoted(relationship.parentIDColumn)
        try connection.statement("DELETE FROM \(lookup) WHERE \(parent) = ?").run([id])
        let insert = try connection.statement(
            "INSERT INTO \(lookup) (\(parent), \(quoted(relationship.childIDColumn)), \(quoted(relationship.indexColumn))) VALUES (?, ?, ?)")
        for (offset, child) in listed.filter({ !deleted.contains($0) }).enumerated() {
            // Gaps between the positions, as the store leaves them, so a later move rewrites one row.
            try insert.run([id, child.sqlValue, .integer(Int64(offset + 1) * 1024)])
        }
    }

    /// Those of `ids` whose records here say they are deleted.
    private func deletedIDs(_ ids: [SyncID], in childTable: String?, of relationship: QSRelationshipDescription) throws -> Set<SyncID> {
        guard let childTable, !ids.isEmpty else { return [] }
        let rows = try connection.fetchRows("""
            SELECT id FROM qsdata_sync_records WHERE tableName = ? AND id IN (SELECT value FROM json_each(?))
            AND deleted IS NOT NULL AND (created IS NULL OR deleted > created)
            """, [.text(childTable), IDList.json(ids.map(\.sqlValue))])
        return Set(rows.compactMap { $0.first.flatMap(SyncID.init(sqlValue:)) })
    }
}
