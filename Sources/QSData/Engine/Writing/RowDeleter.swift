/// Deletes rows with everything that refers to them, on the database queue, inside the
/// caller's transaction: the lookup rows in which they are parents (for every type on the
/// table) or children, and the children the `cascade` rules take with them. A deleted row that
/// lists children in a relationship whose rule is `deny` throws, so that the transaction rolls
/// back, unless the same delete deletes those children too: whether it does is known only once
/// every cascade has run, so the outcome does not depend on the order the tables are visited in.
///
/// Statements: one DELETE for the table and one per lookup table that refers to it, whatever
/// the number of rows; plus one SELECT per `deny` and per `cascade` relationship, and the same
/// again for each table a cascade reaches.
struct RowDeleter {
    let connection: SQLiteConnection
    let registry: TypeRegistry
    /// Told of every row deleted and every parent that lost lookup rows, so that no snapshot
    /// still describes them (a held instance saved after the delete is then inserted again).
    var tracker: ChangeTracker? = nil

    /// Every row deleted, by table, the cascaded ones included.
    typealias DeletedRows = [String: [QSAnyID]]

    /// Deletes the rows of `binding`'s table that `condition` selects. Returns the uniqueIDs
    /// deleted from that table, and records every deletion in `change`.
    func delete(
        _ binding: any AnyTypeBinding, where condition: String, arguments: [SQLValue],
        into change: inout QSChange, deleted: inout DeletedRows
    ) throws -> [QSAnyID] {
        let ids = try deleteRows(of: binding, where: condition, arguments: arguments)
        try deleteDependents(ofTable: binding.description.table, ids: ids, idList: IDList.json(ids), into: &change, deleted: &deleted)
        return ids
    }

    /// Deletes the rows with these uniqueIDs, which `idList` lists (see ``IDList/json(_:)``), as
    /// the method above does.
    func delete(
        _ binding: any AnyTypeBinding, ids: [QSAnyID], idList: SQLValue,
        into change: inout QSChange, deleted: inout DeletedRows
    ) throws -> [QSAnyID] {
        let deletedIDs = try deleteRows(of: binding, where: TableSQL.byIDs, arguments: [idList])
        // When the rows deleted are the IDs given, in their order (as when every ID had a row),
        // the list given is the list of the deleted rows. A count is not enough: a trigger may
        // delete other rows of the table while some IDs have none.
        let deletedList = deletedIDs == ids ? idList : IDList.json(deletedIDs)
        try deleteDependents(ofTable: binding.description.table, ids: deletedIDs, idList: deletedList, into: &change, deleted: &deleted)
        return deletedIDs
    }

    /// Deletes the rows `condition` selects from the type's table; returns their uniqueIDs. Where
    /// the uniqueID is the rowid, SQLite's update hook names them (see
    /// ``SQLiteConnection/rowIDs(_:in:by:)``); otherwise the DELETE returns them.
    private func deleteRows(of binding: any AnyTypeBinding, where condition: String, arguments: [SQLValue]) throws -> [QSAnyID] {
        guard binding.tableFacts.uniqueIDIsRowID else {
            return try idsReturned(by: binding.sql.deleteReturningIDs(where: condition), arguments)
        }
        let rowIDs = try connection.rowIDs(.delete, in: binding.description.table) {
            try connection.execute(binding.sql.delete(where: condition), arguments)
        }
        return rowIDs.map(QSAnyID.integer)
    }

    /// Records the deletion of `ids` from `table`, cleans the lookup tables, and deletes the rows
    /// the cascades orphan, then theirs, a level at a time rather than each within the deletion
    /// that orphaned it: a chain of cascades thousands of rows deep needs no deeper stack than one.
    private func deleteDependents(
        ofTable table: String, ids: [QSAnyID], idList: SQLValue, into change: inout QSChange, deleted: inout DeletedRows
    ) throws {
        var waiting = [DeletedLevel(table: table, ids: ids, idList: idList)]
        var denied: [DeniedChildren] = []
        var next = 0
        while next < waiting.count {
            let level = waiting[next]
            next += 1
            waiting += try deleteDependents(of: level, into: &change, deleted: &deleted, denied: &denied)
        }
        try refuseIfAnyRemains(denied, deleted: deleted)
    }

    /// The children rows just deleted list in a relationship whose rule is `deny`.
    private struct DeniedChildren {
        let denial: DeletePlan.Denial
        let ids: [QSAnyID]
    }

    /// Throws when a child a `deny` rule protects outlives the delete.
    private func refuseIfAnyRemains(_ denied: [DeniedChildren], deleted: DeletedRows) throws {
        for children in denied {
            let gone = Set(deleted[children.denial.childTable] ?? [])
            if children.ids.contains(where: { !gone.contains($0) }) {
                throw QSDataError.deleteDenied(type: children.denial.ownerType, relationship: children.denial.relationship)
            }
        }
    }

    /// Rows just deleted from one table, whose dependents are still to be dealt with.
    private struct DeletedLevel {
        let table: String
        let ids: [QSAnyID]
        /// `ids` as an ``IDList/json(_:)``.
        let idList: SQLValue
    }

    /// Deals with the dependents of the rows `level` deleted; returns the rows its cascades
    /// deleted, by table, whose own dependents are yet to be dealt with. The children the rows
    /// list under a `deny` rule are added to `denied`, to be judged once every level is done.
    private func deleteDependents(
        of level: DeletedLevel, into change: inout QSChange, deleted: inout DeletedRows, denied: inout [DeniedChildren]
    ) throws -> [DeletedLevel] {
        let (table, ids, idList) = (level.table, level.ids, level.idList)
        guard !ids.isEmpty, let plan = registry.deletePlans[table] else { return [] }
        deleted[table, default: []].append(contentsOf: ids)
        tracker?.recordDeletion(of: ids, fromTable: table, bindings: registry.bindings(onTable: table))
        for typeName in plan.typeNames {
            change.record(\.deletedList, ids, of: typeName)
        }
        for denial in plan.denials {
            let children = try idsReturned(by: denial.children, [idList])
            if !children.isEmpty { denied.append(DeniedChildren(denial: denial, ids: children)) }
        }
        var cascadedByTable: [String: [QSAnyID]] = [:]
        for cascade in plan.cascades {
            cascadedByTable[cascade.childTable, default: []] += try idsReturned(by: cascade.orphanedChildren, [idList])
        }
        // Needed only for a lookup table in which the deleted rows are children.
        let deletedHere = plan.lookups.contains { !$0.parentsOfDeletedChildren.isEmpty } ? Set(ids) : []
        for lookup in plan.lookups {
            try cleanUp(lookup, idList: idList, deletedFromTable: table, deletedHere: deletedHere, into: &change)
        }
        var cascaded: [DeletedLevel] = []
        for (childTable, childIDs) in cascadedByTable.sorted(by: { $0.key < $1.key }) where !childIDs.isEmpty {
            guard let childPlan = registry.deletePlans[childTable] else { continue }
            let unique = Array(Set(childIDs))
            let gone = try idsReturned(by: childPlan.deleteReturningIDs, [IDList.json(unique)])
            cascaded.append(DeletedLevel(table: childTable, ids: gone, idList: IDList.json(gone)))
        }
        return cascaded
    }

    /// Runs one lookup table's DELETE; the parents that lost children are recorded as updated.
    private func cleanUp(
        _ lookup: DeletePlan.LookupCleanup, idList: SQLValue, deletedFromTable table: String,
        deletedHere: Set<QSAnyID>, into change: inout QSChange
    ) throws {
        let statement = try connection.statement(lookup.delete)
        try statement.bind([idList])
        defer { statement.reset() }
        guard !lookup.parentsOfDeletedChildren.isEmpty else {
            while try statement.step() {}
            return
        }
        var parents = Array(repeating: Set<QSAnyID>(), count: lookup.parentsOfDeletedChildren.count)
        while try statement.step() {
            for index in parents.indices {
                guard let parent = QSAnyID(sqlValue: statement.value(at: Int32(index))) else { continue }
                // A row that went because its parent was deleted is no change to that parent.
                if lookup.parentsOfDeletedChildren[index].ownerTable == table, deletedHere.contains(parent) { continue }
                parents[index].insert(parent)
            }
        }
        for (index, owner) in lookup.parentsOfDeletedChildren.enumerated() where !parents[index].isEmpty {
            change.record(\.updatedList, Array(parents[index]), of: owner.ownerType)
            if let tracker, let ownerBinding = registry.binding(named: owner.ownerType) {
                tracker.forgetSnapshots(of: Array(parents[index]), bindings: [ownerBinding])
            }
        }
    }

    func idsReturned(by sql: String, _ arguments: [SQLValue]) throws -> [QSAnyID] {
        let statement = try connection.statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var ids: [QSAnyID] = []
        while try statement.step() {
            if let id = QSAnyID(sqlValue: statement.value(at: 0)) { ids.append(id) }
        }
        return ids
    }
}
