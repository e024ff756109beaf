/// Writes on the database queue: saved objects with their lookup rows, bulk deletes and updates.
///
/// Every method runs inside the caller's transaction and returns what changed, for observers.
struct RowWriter {
    let state: QueueState
    let registry: TypeRegistry
    /// What the rows held before this transaction, and what it has written.
    let tracker: ChangeTracker

    /// What writing each type needs, found once for the transaction.
    private let typeWritings: TypeWritings

    init(state: QueueState, registry: TypeRegistry) {
        self.state = state
        self.registry = registry
        tracker = ChangeTracker(state: state)
        typeWritings = TypeWritings(registry: registry, connection: state.connection)
    }

    var connection: SQLiteConnection { state.connection }

    // MARK: Saving

    /// Writes what differs from what the database holds: new rows, changed columns, and the
    /// lookup rows of children added, moved or removed. Unchanged rows cost no statement when
    /// their instance is held (see ``RowSnapshot``), two otherwise, and write nothing. A value-type
    /// child reached through a parent is only inserted when its row doesn't exist: no statement
    /// when the queue knows it does (see ``KnownValueRows``), one otherwise.
    func save(_ groups: [SaveGroup], into change: inout QSChange) throws {
        for group in groups {
            try save(group, into: &change)
        }
    }

    private func save(_ group: SaveGroup, into change: inout QSChange) throws {
        let binding = group.binding
        let writing = try typeWritings.of(binding)
        let statements = writing.statements
        let lookupWriters = writing.lookupWriters
        var inserted: [QSAnyID] = []
        var updated: [QSAnyID] = []
        // The group's snapshots are read and recorded in one go each. When an ID comes twice,
        // its second save sees what its first one wrote.
        let storedSnapshots = tracker.adoptInstancesAndReadSnapshots(of: group)
        tracker.recordSaving(group.ids, of: binding)
        var recorded = RecordedSnapshots(expecting: group.ids.count, idsRepeat: group.repeatsIDs)
        let epoch = state.snapshotTrust.epoch
        // Saves reach the queue in the order the main actor encoded them: none from now on was
        // encoded before this one, so none compares with what it held before earlier reads.
        let replaced = state.replacedSnapshots
        replaced.forget(upTo: group.outsideReadsMerged)
        let comparesWithReplaced = !replaced.isEmpty
        let isNewValueRow = tracker.recordExisting(group, in: writing.table)
        let knownRows = binding.cachesInstances ? state.knownRows(of: binding) : nil
        let insertedAhead = try insertRowsAhead(of: group, storedSnapshots: storedSnapshots, isNewValueRow: isNewValueRow, statements: statements)
        // The row as the instance showed it, when a read of another writer's change the main
        // actor had not merged yet replaced its snapshot: what the app changed is what differs
        // from that.
        func shownBefore(_ id: QSAnyID, snapshot: RowSnapshot?) -> RowSnapshot? {
            comparesWithReplaced && snapshot != nil ? replaced.snapshot(of: id, binding: binding, encodedAfter: group.outsideReadsMerged) : nil
        }
        var columnsToWrite = ColumnsToWrite(binding: binding, statements: statements, context: QueueContext(state: state, registry: registry))
        // A group of one row compares it in the loop below: nothing to read ahead together.
        if !group.repeatsIDs, !writing.immutable, group.rows.count > 1 {
            try columnsToWrite.compareAhead(group) { offset in
                storedSnapshots[offset].map { shownBefore(group.ids[offset], snapshot: $0) ?? $0 }
            }
        }
        for offset in group.rows.indices {
            // A parent that comes twice in the group finds its lookup rows as its first save left them.
            if group.repeatsIDs { try lookupWriters.writePending() }
            // A held instance that marked nothing, its row as the database holds it: kept above.
            if group.isUnchanged(offset) { continue }
            // Hashed as its snapshot says, with no children set: nothing to write or to record.
            if columnsToWrite.isUnchangedAhead(offset), group.rows.setsNoChildren(at: offset) { continue }
            let id = group.ids[offset]
            let values = group.rows.values(at: offset)
            let lookups = group.rows.lookups(at: offset)
            if group.isReachedThroughParent(offset) {
                guard isNewValueRow[offset] else { continue }
                if try insertIfMissing(
                    values, lookups: lookups, id: id, of: binding, insertedAhead: insertedAhead.outcome(at: offset), statements: statements,
                    lookupWriters: lookupWriters) {
                    inserted.append(id)
                }
                continue
            }
            let snapshot = recorded.snapshot(of: id) ?? storedSnapshots[offset]
            let shown = shownBefore(id, snapshot: snapshot)
            var existing: ColumnsToWrite.Answer?
            if let compared = shown ?? snapshot {
                let marked = group.markedColumns.isEmpty ? nil : group.markedColumns[offset]
                existing = writing.immutable
                    ? ColumnsToWrite.Answer(columns: [])
                    : try columnsToWrite.answer(at: offset, values: values, id: id, snapshot: compared, marked: marked)
            }
            let (isNew, rowChanged) = try writeRow(
                values, of: binding, existing: existing?.columns, insertedAhead: insertedAhead.outcome(at: offset), statements: statements)
            if isNew {
                lookupWriters.insertRows(of: lookups, parentID: id)
                recorded.record(RowSnapshot.inserted(values: binding.tracksChanges ? nil : values, lookups: lookups.array, epoch: epoch), for: id)
                inserted.append(id)
                if isInsertedAgain(id, at: offset, of: group, snapshot: snapshot, knownRows: knownRows) {
                    tracker.recordInsertedAgain(id, table: writing.table)
                }
            } else if try writeExisting(
                values, lookups: lookups, id: id, snapshot: snapshot, shown: shown,
                valuesHash: Self.hashWritten(values, binding: binding, rowChanged: rowChanged, snapshot: snapshot, shown: shown, existing: existing),
                rowChanged: rowChanged, epoch: epoch, lookupWriters: lookupWriters, into: &recorded) {
                updated.append(id)
            }
            if rowChanged, shown != nil, !binding.tracksChanges {
                replaced.saved(id, binding: binding, encodedAfter: group.outsideReadsMerged, valuesHash: existing?.encodedHash ?? RowHash(of: values))
            }
            if rowChanged, !writing.cachingSiblings.isEmpty {
                // Other types on the table read some of the same columns.
                tracker.recordUpdate(of: [id], columns: binding.layout.names, bindings: writing.cachingSiblings, instancesShowIt: true)
            }
        }
        // The lookup rows the group inserts, in a few statements, before any other type's rows.
        try lookupWriters.writePending()
        tracker.record(consume recorded, of: binding)
        for name in writing.typeNames {
            change.record(\.insertedList, inserted, of: name)
            change.record(\.updatedList, updated, of: name)
        }
    }

    /// Brings the lookup rows of an existing row (its columns already written: `rowChanged` says
    /// whether any differed) to the encoded `lookups`, and records its snapshot when it changed or
    /// more became known. A relationship whose children are those `shown` (the row as the
    /// instance showed it, before another writer's change the main actor had not merged) lists is
    /// left as that writer left it. Returns whether anything changed.
    private func writeExisting(
        _ values: RowValues, lookups: RowLookups, id: QSAnyID, snapshot: RowSnapshot?, shown: RowSnapshot?, valuesHash: RowHash?,
        rowChanged: Bool, epoch: UInt64, lookupWriters: LookupWriters, into recorded: inout RecordedSnapshots
    ) throws -> Bool {
        var changed = rowChanged
        var learned = false  // lookup rows read from the database, now known
        // The row's next lookup slots, made only once one of them changes or becomes known.
        var lookupRows: [LookupSlot]?
        for position in lookups.indices {
            guard let wanted = lookups[position].rows else { continue }
            if let shown, position < shown.lookups.count, shown.lookups[position].rows?.childIDs == wanted.childIDs { continue }
            let stored = Self.lookupSlot(of: snapshot, at: position)
            let written = try lookupWriters.writer(at: position).write(wanted.childIDs, parentID: id, stored: stored.rows)
            guard written.changed || !stored.isKnown else { continue }
            learned = learned || !stored.isKnown
            changed = changed || written.changed
            if lookupRows == nil { lookupRows = Self.lookupSlots(of: snapshot, count: lookups.count) }
            lookupRows?[position].rows = written.rows
        }
        if snapshot == nil || changed || learned || valuesHash != snapshot?.valuesHash {
            // Without a snapshot the row was written whole, so the new one is true now; with one,
            // only what differed from it was written, so it is as true as that was. A snapshot
            // that no longer said what the columns hold knows them again once the row was read.
            // Lookup slots none of which changed are the snapshot's own list, shared.
            let slots = lookupRows ?? Self.unchangedLookupSlots(of: snapshot, count: lookups.count)
            recorded.record(RowSnapshot(valuesHash: valuesHash, lookups: slots, epoch: snapshot?.epoch ?? epoch), for: id)
        }
        return changed
    }

    /// The snapshot's lookup slot at `position`: unknown without a snapshot, or beyond its slots.
    private static func lookupSlot(of snapshot: RowSnapshot?, at position: Int) -> LookupSlot {
        guard let snapshot, position < snapshot.lookups.count else { return .unknown }
        return snapshot.lookups[position]
    }

    /// The snapshot's lookup slots as they are, for a row none of whose lookup rows changed: its
    /// own list when it has one slot per relationship, else a list made as ``lookupSlots(of:count:)`` makes it.
    private static func unchangedLookupSlots(of snapshot: RowSnapshot?, count: Int) -> [LookupSlot] {
        if let snapshot, snapshot.lookups.count == count { return snapshot.lookups }
        return lookupSlots(of: snapshot, count: count)
    }

    /// The snapshot's lookup slots (unknown without one) in an array of their own, for the row's
    /// next snapshot: built afresh, since changing a copy of the array the snapshot shares would
    /// copy it through the runtime's generic copy of each element.
    private static func lookupSlots(of snapshot: RowSnapshot?, count: Int) -> [LookupSlot] {
        guard count > 0 else { return [] }
        var slots: [LookupSlot] = []
        slots.reserveCapacity(count)
        for position in 0 ..< count {
            slots.append(lookupSlot(of: snapshot, at: position))
        }
        return slots
    }

    /// Whether the row `id`, just inserted, is the row of a held instance that was gone: deleted
    /// by a writer whose change the store had not read yet (the queue still had its snapshot),
    /// or had read (the instance remembered as held then: see ``InstancesFoundDeleted``).
    private func isInsertedAgain(_ id: QSAnyID, at offset: Int, of group: SaveGroup, snapshot: RowSnapshot?, knownRows: KnownRows?) -> Bool {
        if snapshot != nil { return true }
        guard let knownRows, knownRows.hasInstancesFoundDeleted, let instance = group.instances[offset] else { return false }
        return knownRows.wasFoundDeleted(id, heldBy: instance.object)
    }

    /// The hash for a row's snapshot once a save wrote it: the row as the instance shows it now,
    /// which is what the snapshot of a row whose instance is held says. When the instance showed
    /// the row as it was before another writer's change the main actor had not merged yet
    /// (`shown`), the save wrote only the app's columns over that writer's row, which the merge
    /// will bring the instance to: that row, with the app's columns. Unchanged, the snapshot's
    /// hash stays, or, when it had none, the row read is hashed. Nil for a type whose instances
    /// mark their changes.
    static func hashWritten(
        _ values: RowValues, binding: any AnyTypeBinding, rowChanged: Bool, snapshot: RowSnapshot?, shown: RowSnapshot?,
        existing: ColumnsToWrite.Answer?
    ) -> RowHash? {
        guard !binding.tracksChanges else { return nil }
        guard let snapshot, let existing else { return RowHash(of: values) }
        guard rowChanged else { return snapshot.valuesHash ?? existing.current.map { RowHash(of: $0) } ?? existing.encodedHash ?? RowHash(of: values) }
        guard shown != nil, var written = existing.current else { return existing.encodedHash ?? RowHash(of: values) }
        for column in existing.columns { written[column] = values[column] }
        return RowHash(of: written)
    }

    /// Writes a value-type child reached through a parent (a copy, maybe older than its row):
    /// inserts the row, with its lookup rows, when it doesn't exist, and never writes over one
    /// that does: an insert that does nothing when it does (or, for a type that can't insert, a
    /// read that refuses a missing row). The caller skips rows the queue knows exist. Returns
    /// whether it inserted; `insertedAhead` says so when the row was inserted ahead of the group.
    private func insertIfMissing(
        _ values: RowValues, lookups: RowLookups, id: QSAnyID, of binding: any AnyTypeBinding, insertedAhead: Bool?,
        statements: RowStatements, lookupWriters: LookupWriters
    ) throws -> Bool {
        let isNew: Bool
        if statements.columnsMissingForInsert.isEmpty {
            isNew = try insertedAhead ?? run(statements.insert, values)
        } else if try rowExists(values[0], sql: statements.sql) {
            isNew = false
        } else {
            throw QSDataError.missingRequiredColumn(type: binding.description.name, column: statements.columnsMissingForInsert[0])
        }
        if isNew { lookupWriters.insertRows(of: lookups, parentID: id) }
        return isNew
    }

    /// Writes one row: only the `existing` columns when the queue has a snapshot of the row (see
    /// ``ColumnsToWrite``); otherwise an insert that does nothing when the row exists, then an
    /// update that does nothing when no value differs. A type that can't insert its rows (its
    /// table has a required column it lacks) only updates, and refuses a row that doesn't exist.
    /// `insertedAhead` is the outcome of the insert when it ran ahead of the group.
    private func writeRow(
        _ values: RowValues, of binding: any AnyTypeBinding, existing: [Int]?, insertedAhead: Bool?, statements: RowStatements
    ) throws -> (isNew: Bool, changed: Bool) {
        let sql = statements.sql
        if let existing {
            if existing.isEmpty { return (false, false) }
            let update = try connection.statement(sql.updateByID(columnsAt: existing))
            // The changed columns, then the uniqueID the row is found by, bound where they lie.
            try update.bind(values, columnsAt: existing, then: 0)
            try update.step()
            update.reset()
            if connection.changes > 0 { return (false, true) }
            // The row is gone (deleted by SQL outside the store): insert it again below.
        }
        let missingColumns = statements.columnsMissingForInsert
        if missingColumns.isEmpty {
            if try insertedAhead ?? run(statements.insert, values) { return (true, true) }
            guard let update = statements.updateIfChanged else { return (false, false) }
            return (false, try run(update, values))
        }
        let changed = try statements.updateIfChanged.map { try run($0, values) } ?? false
        if !changed, try !rowExists(values[0], sql: sql) {
            throw QSDataError.missingRequiredColumn(type: binding.description.name, column: missingColumns[0])
        }
        return (false, changed)
    }

    /// Inserts ahead of the group, in a few statements, the rows that the loop over it would
    /// otherwise insert one statement each: those the queue knows nothing of (no snapshot, or a
    /// value child reached through a parent not known to exist). The statements skip the rows
    /// that exist; SQLite's update hook names the rows inserted where the uniqueID is the rowid,
    /// and the statements return them otherwise (a `RETURNING` clause costs about as much as a
    /// query for the rows that exist, and the hook far less). Nothing when fewer than two, when
    /// an ID comes twice (its second save must see the first), or when the type can't insert its
    /// rows.
    private func insertRowsAhead(
        of group: SaveGroup, storedSnapshots: [RowSnapshot?], isNewValueRow: [Bool], statements: RowStatements
    ) throws -> InsertedAhead {
        guard !group.repeatsIDs, statements.columnsMissingForInsert.isEmpty else { return InsertedAhead() }
        let tried = group.rows.indices.filter { offset in
            if group.isUnchanged(offset) { return false }
            if group.isReachedThroughParent(offset) { return isNewValueRow[offset] }
            return storedSnapshots[offset] == nil
        }
        guard tried.count > 1 else { return InsertedAhead() }
        let insertedIDs = try insertSkippingExisting(tried, of: group, statements: statements)
        // The rows go in in the order given, so when none existed the IDs come back in that order.
        if insertedIDs.elementsEqual(tried.lazy.map { group.ids[$0] }) {
            return InsertedAhead(tried: tried, inserted: tried, rowCount: group.rows.count)
        }
        let inserted = Set(insertedIDs)
        return InsertedAhead(tried: tried, inserted: tried.filter { inserted.contains(group.ids[$0]) }, rowCount: group.rows.count)
    }

    /// Inserts the rows at `offsets`, skipping those that exist; returns the uniqueIDs inserted.
    private func insertSkippingExisting(_ offsets: [Int], of group: SaveGroup, statements: RowStatements) throws -> [QSAnyID] {
        func insert(returned: (SQLiteStatement) throws -> Void) throws {
            try statements.insertMany.run(count: offsets.count, bind: { statement, batch in
                var parameter: Int32 = 1
                for offset in offsets[batch] {
                    for value in group.rows.values(at: offset) {
                        try statement.bind(value, at: parameter)
                        parameter += 1
                    }
                }
            }, returned: returned)
        }
        if statements.uniqueIDIsRowID {
            return try connection.rowIDs(.insert, in: statements.table) { try insert(returned: { _ in }) }
                .map(QSAnyID.integer)
        }
        var returnedIDs: [QSAnyID] = []
        returnedIDs.reserveCapacity(offsets.count)
        try insert { statement in
            if let id = QSAnyID(sqlValue: statement.value(at: 0)) { returnedIDs.append(id) }
        }
        return returnedIDs
    }

    private func rowExists(_ id: SQLValue, sql: TableSQL) throws -> Bool {
        try connection.fetchValue(sql.rowExists, [id]) != nil
    }

    /// Runs a write statement with `values`; returns whether it changed a row.
    private func run(_ statement: SQLiteStatement, _ values: RowValues) throws -> Bool {
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
        try RowDeleter(connection: connection, registry: registry, tracker: tracker)
            .delete(binding, where: condition, arguments: arguments, into: &change, deleted: &deleted)
    }

    /// Deletes the rows with these uniqueIDs, which `idList` lists, as the method above does.
    func delete(
        _ binding: any AnyTypeBinding, ids: [QSAnyID], idList: SQLValue,
        into change: inout QSChange, deleted: inout RowDeleter.DeletedRows
    ) throws -> [QSAnyID] {
        try RowDeleter(connection: connection, registry: registry, tracker: tracker)
            .delete(binding, ids: ids, idList: idList, into: &change, deleted: &deleted)
    }

    /// Sets `columns` on the rows `condition` selects, in one statement. Returns their uniqueIDs.
    func update(_ binding: any AnyTypeBinding, columns: [(name: String, value: SQLValue)], where condition: String, arguments: [SQLValue], into change: inout QSChange) throws -> [QSAnyID] {
        let sql = binding.sql.updateReturningIDs(columns: columns.map(\.name), where: condition)
        let ids = try idsReturned(by: sql, columns.map(\.value) + arguments)
        record(ids, columns: columns, of: binding, into: &change)
        tracker.recordUpdate(of: ids, columns: columns.map(\.name), bindings: [binding] + registry.siblings(of: binding), instancesShowIt: false)
        return ids
    }

    /// Sets `columns` on the rows with these uniqueIDs, in one statement. When every ID had a
    /// row (the usual case) no more is needed to know which changed; otherwise one SELECT finds
    /// the ones that exist, so observers hear exactly the updated IDs.
    ///
    func update(
        _ binding: any AnyTypeBinding, columns: [(name: String, value: SQLValue)], ids: [QSAnyID], idList: SQLValue, into change: inout QSChange
    ) throws {
        let updated = try updateRows(binding, columns: columns, ids: ids, idList: idList)
        record(updated, columns: columns, of: binding, into: &change)
        tracker.recordUpdate(of: updated, columns: columns.map(\.name), bindings: [binding] + registry.siblings(of: binding), instancesShowIt: true)
    }

    /// Runs the UPDATE for `ids`; returns the IDs that had a row.
    private func updateRows(_ binding: any AnyTypeBinding, columns: [(name: String, value: SQLValue)], ids: [QSAnyID], idList: SQLValue) throws -> [QSAnyID] {
        let sql = binding.sql.update(columns: columns.map(\.name), where: TableSQL.byIDs)
        try connection.execute(sql, columns.map(\.value) + [idList])
        guard connection.changes != ids.count else { return ids }
        let existing = "SELECT \(quoted("uniqueID")) FROM \(binding.sql.table) WHERE \(TableSQL.byIDs)"
        return try idsReturned(by: existing, [idList])
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
