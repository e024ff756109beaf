/// Writes on the database queue: saved objects with their lookup rows, bulk deletes and updates.
///
/// Every method runs inside the caller's transaction and returns what changed, for observers.
struct RowWriter {
    let connection: SQLiteConnection
    let registry: TypeRegistry

    // MARK: Saving

    /// Inserts or updates each object, then rewrites its lookup rows if their order or
    /// membership changed. Unchanged rows are not written.
    func save(_ snapshots: [ObjectSnapshot], into change: inout QSChange) throws {
        // Changed IDs are collected per type and recorded once at the end: recording them one
        // at a time (a key path, a dictionary and a set per object) cost a fifth of a large save.
        var changedByType: [ObjectIdentifier: ChangedIDs] = [:]
        for snapshot in snapshots {
            let binding = snapshot.binding
            let inserted = try insertIfNew(snapshot)
            var changed = try inserted || updateIfChanged(snapshot)
            for relationship in snapshot.relationships {
                guard let sql = binding.sql.relationships[relationship.name] else { continue }
                if try writeLookupRows(relationship, sql: sql, parentID: snapshot.id, parentIsNew: inserted) {
                    changed = true
                }
            }
            if changed {
                let key = ObjectIdentifier(binding)
                if changedByType[key] == nil {
                    changedByType[key] = ChangedIDs(typeNames: [binding.description.name] + registry.siblings(of: binding).map(\.description.name))
                }
                if inserted {
                    changedByType[key]?.inserted.append(snapshot.id)
                } else {
                    changedByType[key]?.updated.append(snapshot.id)
                }
            }
        }
        // The saved type and the other types on its table hear of the same rows.
        for changed in changedByType.values {
            for typeName in changed.typeNames {
                if !changed.inserted.isEmpty { change.record(\.inserted, changed.inserted, of: typeName) }
                if !changed.updated.isEmpty { change.record(\.updated, changed.updated, of: typeName) }
            }
        }
    }

    private struct ChangedIDs {
        let typeNames: [String]
        var inserted: [QSAnyID] = []
        var updated: [QSAnyID] = []
    }

    private func insertIfNew(_ snapshot: ObjectSnapshot) throws -> Bool {
        let statement = try connection.statement(snapshot.binding.sql.insert)
        try statement.bind(snapshot.values)
        try statement.step()
        statement.reset()
        return connection.changes > 0
    }

    private func updateIfChanged(_ snapshot: ObjectSnapshot) throws -> Bool {
        guard let sql = snapshot.binding.sql.updateIfChanged else { return false }
        let statement = try connection.statement(sql)
        try statement.bind(snapshot.values)
        try statement.step()
        statement.reset()
        return connection.changes > 0
    }

    /// Returns whether the lookup rows changed.
    private func writeLookupRows(_ relationship: RelationshipSnapshot, sql: RelationshipSQL, parentID: QSAnyID, parentIsNew: Bool) throws -> Bool {
        if !parentIsNew {
            let existing = try connection.fetchRows(sql.childrenOfOneParent, [parentID.sqlValue]).map { $0.first ?? .null }
            if existing == relationship.childIDs.map(\.sqlValue) { return false }
            try connection.execute(sql.deleteForOneParent, [parentID.sqlValue])
        }
        guard !relationship.childIDs.isEmpty else { return !parentIsNew }
        let insert = try connection.statement(sql.insert)
        for (index, childID) in relationship.childIDs.enumerated() {
            try insert.bind([parentID.sqlValue, childID.sqlValue, .integer(Int64(index))])
            try insert.step()
        }
        insert.reset()
        return true
    }

    // MARK: Bulk delete and update

    /// Deletes the rows `condition` selects and their lookup rows: one statement for the table
    /// and one per relationship. Returns the deleted uniqueIDs.
    func delete(_ binding: any AnyTypeBinding, where condition: String, arguments: [SQLValue], into change: inout QSChange) throws -> [QSAnyID] {
        let ids = try idsReturned(by: binding.sql.deleteReturningIDs(where: condition), arguments)
        guard !ids.isEmpty else { return [] }
        if !binding.description.relationships.isEmpty {
            let idList = IDList.json(ids)
            for relationship in binding.description.relationships {
                guard let sql = binding.sql.relationships[relationship.name] else { continue }
                try connection.execute(sql.deleteForParents, [idList])
            }
        }
        for typeBinding in [binding] + registry.siblings(of: binding) {
            change.record(\.deleted, ids, of: typeBinding.description.name)
        }
        return ids
    }

    /// Sets `columns` on the rows `condition` selects, in one statement. Returns their uniqueIDs.
    func update(_ binding: any AnyTypeBinding, columns: [(name: String, value: SQLValue)], where condition: String, arguments: [SQLValue], into change: inout QSChange) throws -> [QSAnyID] {
        let sql = binding.sql.updateReturningIDs(columns: columns.map(\.name), where: condition)
        let ids = try idsReturned(by: sql, columns.map(\.value) + arguments)
        let names = Set(columns.map(\.name))
        for typeBinding in [binding] + registry.siblings(of: binding)
        where typeBinding.description.properties.contains(where: { names.contains($0.name) }) {
            change.record(\.updated, ids, of: typeBinding.description.name)
        }
        return ids
    }

    private func idsReturned(by sql: String, _ arguments: [SQLValue]) throws -> [QSAnyID] {
        let statement = try connection.statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var ids: [QSAnyID] = []
        while try statement.step() {
            switch statement.value(at: 0) {
            case .integer(let value): ids.append(.integer(value))
            case .text(let value): ids.append(.string(value))
            default: continue
            }
        }
        return ids
    }
}
