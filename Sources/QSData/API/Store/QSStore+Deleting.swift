/// Deleting. A delete takes with it, in the same transaction, every lookup row that refers to
/// the deleted rows, and applies each relationship's ``QSDeleteRule``. Instances in memory
/// follow: deleted ones are forgotten, and cached parents stop listing them.
extension QSStore {
    /// Deletes objects with their lookup rows, as deleting by their uniqueIDs does. An object in
    /// hand that lists children in a relationship whose rule is `deny`, children this delete
    /// does not delete too, is refused before any SQL.
    ///
    /// - Parameters:
    ///   - objects: The objects to delete, all of one type.
    ///   - source: Who made the change, reported to observers: the app (the default) or sync.
    ///   - alongside: SQL of the app's own to run in the same transaction, after the deletes,
    ///     given the uniqueIDs that were deleted.
    @discardableResult
    public func delete<Object: QSDataObject>(
        _ objects: [Object], source: QSChangeSource = .app, alongside: (@Sendable (SQLiteConnection, [Object.UniqueID]) throws -> Void)? = nil
    ) throws -> QSWrite {
        let binding = try registry.binding(for: Object.self)
        let ids = objects.map { $0.uniqueID.anyID }
        try refuseDenials(of: binding, deleting: ids) { relationship, deletedToo in
            try objects.contains { try binding.listsChildren($0, in: relationship, besides: deletedToo) }
        }
        return try delete(Object.self, anyIDs: ids, source: source, alongside: alongside)
    }

    /// Deletes the objects with these uniqueIDs, every lookup row that refers to them (as parent,
    /// for every type on their table, and as child), and what their relationships' delete rules
    /// take with them: one statement for the table and one per lookup table, whatever the number.
    ///
    /// Instances are forgotten at once, and cached parents drop them from their relationships.
    /// A row that lists children in a relationship whose rule is `deny` refuses the delete,
    /// unless the delete takes those children too (they are among `ids`, or a cascade deletes
    /// them). When an instance the store holds lists such children and nothing cascades from the
    /// table, this throws ``QSDataError/deleteDenied(type:relationship:)`` here, before any SQL;
    /// otherwise the database decides once every cascade has run, and a refusal fails the write,
    /// which rolls back and reports it like any write error.
    ///
    /// - Parameters:
    ///   - type: The type whose rows to delete.
    ///   - ids: The uniqueIDs to delete; any number, duplicates and unknown IDs included.
    ///   - source: Who made the change, reported to observers: the app (the default) or sync.
    ///   - alongside: SQL of the app's own to run in the same transaction, after the deletes,
    ///     given the uniqueIDs that were deleted — for example to record them in a
    ///     `deletedNotes` table for sync.
    @discardableResult @inlinable
    public func delete<Object: QSDataObject>(
        _ type: Object.Type, ids: some Sequence<Object.UniqueID>, source: QSChangeSource = .app,
        alongside: (@Sendable (SQLiteConnection, [Object.UniqueID]) throws -> Void)? = nil
    ) throws -> QSWrite {
        // Listed in the app's code, compiled for its ID type (see `update(_:ids:set:source:)`).
        try delete(type, anyIDs: ids.anyIDs, source: source, alongside: alongside)
    }

    @usableFromInline
    func delete<Object: QSDataObject>(
        _ type: Object.Type, anyIDs ids: [QSAnyID], source: QSChangeSource,
        alongside: (@Sendable (SQLiteConnection, [Object.UniqueID]) throws -> Void)?
    ) throws -> QSWrite {
        try beginWrite()
        let stamp = WriteStamp.next()
        let binding = try registry.binding(for: type)
        let table = binding.description.table
        try checkDenials(onTable: table, ids: ids)
        let touches = MemoryTouches(stamp: stamp)
        registry.forgetDeleted([table: ids], timing: .atOnce, touches: touches)
        let argument = IDList.json(ids)
        let registry = self.registry
        return submitWrite("delete \(ids.count) \(Object.modelName)", source: source, touches: touches) { writer, change in
            var deleted: RowDeleter.DeletedRows = [:]
            let ids = try writer.delete(binding, ids: ids, idList: argument, into: &change, deleted: &deleted)
            try alongside?(writer.connection, ids.compactMap { Object.UniqueID(anyID: $0) })
            // The rows asked for, listed first, are forgotten already; rows the cascades deleted
            // from the same table (a passage leading on to the next) are not.
            if let rows = deleted[table] {
                let cascaded = Array(rows.dropFirst(ids.count))
                deleted[table] = cascaded.isEmpty ? nil : cascaded
            }
            return registry.forgettingWork(deleted, stamp: stamp)
        }
    }

    /// Deletes the rows an SQL condition selects, with everything that refers to them as
    /// deleting by uniqueIDs does; instances are forgotten once the delete commits.
    /// ```swift
    /// try store.delete(Article.self, where: "read = 1 AND datePublished < ?", arguments: [.real(cutoff)])
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type whose rows to delete.
    ///   - condition: An SQL `WHERE` condition on the type's table, with `?` placeholders.
    ///   - arguments: The values bound to the condition's placeholders, in order.
    ///   - source: Who made the change, reported to observers: the app (the default) or sync.
    ///   - alongside: SQL of the app's own to run in the same transaction, after the deletes,
    ///     given the uniqueIDs that were deleted.
    @discardableResult
    public func delete<Object: QSDataObject>(
        _ type: Object.Type, where condition: String, arguments: [SQLValue] = [], source: QSChangeSource = .app,
        alongside: (@Sendable (SQLiteConnection, [Object.UniqueID]) throws -> Void)? = nil
    ) throws -> QSWrite {
        try beginWrite()
        let stamp = WriteStamp.next()
        let binding = try registry.binding(for: type)
        let registry = self.registry
        return submitWrite("delete \(Object.modelName) where \(condition)", source: source) { writer, change in
            var deleted: RowDeleter.DeletedRows = [:]
            let ids = try writer.delete(binding, where: condition, arguments: arguments, into: &change, deleted: &deleted)
            try alongside?(writer.connection, ids.compactMap { Object.UniqueID(anyID: $0) })
            return registry.forgettingWork(deleted, stamp: stamp)
        }
    }

    /// Throws when an instance the store holds for one of `ids` lists children in a relationship
    /// whose rule is `deny` that the delete leaves, for any type on the table.
    private func checkDenials(onTable table: String, ids: [QSAnyID]) throws {
        for binding in registry.bindings(onTable: table) {
            try refuseDenials(of: binding, deleting: ids) { relationship, deletedToo in
                try binding.cachedInstanceListsChildren(ids: ids, in: relationship, besides: deletedToo)
            }
        }
    }

    /// Throws when `listsChildren` finds, for a relationship of `binding` whose rule is `deny`,
    /// a child besides the ones given (the rows deleted, where the children are on the same
    /// table). Only where nothing cascades from the table: a cascade may delete the children
    /// too, and only the database knows which it does, once it has run.
    private func refuseDenials(
        of binding: any AnyTypeBinding, deleting ids: [QSAnyID],
        listsChildren: (_ relationship: String, _ deletedToo: Set<QSAnyID>) throws -> Bool
    ) throws {
        let table = binding.description.table
        guard let plan = registry.deletePlans[table], plan.cascades.isEmpty else { return }
        for denial in plan.denials where denial.ownerType == binding.description.name {
            let deletedToo = denial.childTable == table ? Set(ids) : []
            if try listsChildren(denial.relationship, deletedToo) {
                throw QSDataError.deleteDenied(type: denial.ownerType, relationship: denial.relationship)
            }
        }
    }
}
