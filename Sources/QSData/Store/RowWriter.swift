/// Writes on the database queue: saved objects with their lookup rows, bulk deletes and updates.
///
/// Every method runs inside the caller's transaction and returns what changed, for observers.
struct RowWriter {
    let connection: SQLiteConnection
    let registry: TypeRegistry

    // MARK: Saving

    /// Inserts or updates each row, then rewrites its lookup rows if their order or membership
    /// changed. Unchanged rows are not written.
    func save(_ groups: [SaveGroup], into change: inout QSChange) throws {
        for group in groups {
            try save(group, into: &change)
        }
    }

    private func save(_ group: SaveGroup, into change: inout QSChange) throws {
        let binding = group.binding
        let sql = binding.sql
        let missingColumns = binding.columnsMissingForInsert.columns
        let insert = missingColumns.isEmpty ? try connection.statement(sql.insert) : nil
        let update = try sql.updateIfChanged.map { try connection.statement($0) }
        var lookups: [String: LookupWriter] = [:]
        var inserted: [QSAnyID] = []
        var updated: [QSAnyID] = []
        for (offset, values) in group.rows.enumerated() {
            let id = group.ids[offset]
            let isNew: Bool
            var changed: Bool
            if let insert {
                isNew = try run(insert, values)
                changed = try isNew || update.map { try run($0, values) } ?? false
            } else {
                // The type can't insert its rows: it updates the row that exists, and refuses
                // a new one before trying to INSERT it.
                isNew = false
                changed = try update.map { try run($0, values) } ?? false
                if !changed, try !rowExists(values[0], sql: sql) {
                    throw QSDataError.missingRequiredColumn(type: binding.description.name, column: missingColumns[0])
                }
            }
            for relationship in group.relationships[offset] {
                if lookups[relationship.name] == nil {
                    guard let relationshipSQL = sql.relationships[relationship.name] else { continue }
                    lookups[relationship.name] = try LookupWriter(sql: relationshipSQL, connection: connection)
                }
                if try lookups[relationship.name]?.write(relationship.childIDs, parentID: id, parentIsNew: isNew) == true {
                    changed = true
                }
            }
            if isNew {
                inserted.append(id)
            } else if changed {
                updated.append(id)
            }
        }
        for typeBinding in [binding] + registry.siblings(of: binding) {
            change.record(\.insertedList, inserted, of: typeBinding.description.name)
            change.record(\.updatedList, updated, of: typeBinding.description.name)
        }
    }

    private func rowExists(_ id: SQLValue, sql: TableSQL) throws -> Bool {
        try connection.fetchValue(sql.rowExists, [id]) != nil
    }

    /// Runs a write statement with `values`; returns whether it changed a row.
    private func run(_ statement: SQLiteStatement, _ values: [SQLValue]) throws -> Bool {
        try statement.bind(values)
        try statement.step()
        statement.reset()
        return connection.changes > 0
    }

    // MARK: Bulk delete and update

    /// Deletes the rows `condition` selects with everything that refers to them (see
    /// ``RowDeleter``). Returns the deleted uniqueIDs of `binding`'s table; `deleted` gets every
    /// row deleted, cascades included, by table.
    func delete(
        _ binding: any AnyTypeBinding, where condition: String, arguments: [SQLValue],
        into change: inout QSChange, deleted: inout RowDeleter.DeletedRows
    ) throws -> [QSAnyID] {
        try RowDeleter(connection: connection, registry: registry)
            .delete(binding, where: condition, arguments: arguments, into: &change, deleted: &deleted)
    }

    /// Sets `columns` on the rows `condition` selects, in one statement. Returns their uniqueIDs.
    func update(_ binding: any AnyTypeBinding, columns: [(name: String, value: SQLValue)], where condition: String, arguments: [SQLValue], into change: inout QSChange) throws -> [QSAnyID] {
        let sql = binding.sql.updateReturningIDs(columns: columns.map(\.name), where: condition)
        let ids = try idsReturned(by: sql, columns.map(\.value) + arguments)
        record(ids, columns: columns, of: binding, into: &change)
        return ids
    }

    /// Sets `columns` on the rows with these uniqueIDs, in one statement. When every ID had a
    /// row (the usual case) no more is needed to know which changed; otherwise one SELECT finds
    /// the ones that exist, so observers hear exactly the updated IDs.
    func update(_ binding: any AnyTypeBinding, columns: [(name: String, value: SQLValue)], ids: [QSAnyID], idList: SQLValue, into change: inout QSChange) throws {
        let sql = binding.sql.update(columns: columns.map(\.name), where: TableSQL.byIDs)
        try connection.execute(sql, columns.map(\.value) + [idList])
        var updated = ids
        if connection.changes != ids.count {
            let existing = "SELECT \(quoted("uniqueID")) FROM \(binding.sql.table) WHERE \(TableSQL.byIDs)"
            updated = try idsReturned(by: existing, [idList])
        }
        record(updated, columns: columns, of: binding, into: &change)
    }

    private func record(_ ids: [QSAnyID], columns: [(name: String, value: SQLValue)], of binding: any AnyTypeBinding, into change: inout QSChange) {
        let names = Set(columns.map(\.name))
        if !ids.isEmpty { change.bulkUpdate = (binding.description.table, names) }
        for typeBinding in [binding] + registry.siblings(of: binding)
        where typeBinding.description.properties.contains(where: { names.contains($0.name) }) {
            change.record(\.updatedList, ids, of: typeBinding.description.name)
        }
    }

    private func idsReturned(by sql: String, _ arguments: [SQLValue]) throws -> [QSAnyID] {
        try RowDeleter(connection: connection, registry: registry).idsReturned(by: sql, arguments)
    }
}
