import QSData

/// Merges changes pulled from the server into the store: each object's record with
/// ``SyncRecord/merge(_:)``, then its row and lookup rows to what won. Runs inside a write
/// transaction of the store's (as the app's own SQL does), so held instances, observers and
/// live queries hear of it as a change from sync.
struct RemoteApplier: Sendable {
    let schema: SyncedSchema
    let clock: HybridLogicalClock
    /// The renames in force, for what older devices send.
    let history: SchemaHistory

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

    /// What one call of ``apply(_:on:)`` gathers as it goes.
    struct Batch {
        var outcome = Outcome()
        /// Rows inserted, by table: lists that name them are rewritten at the end.
        var inserted: [String: [SQLValue]] = [:]
        /// Objects of tables with a unique key, by their keys, read when first needed.
        var keys: [String: UniqueKeys] = [:]
        /// Duplicates deleted (see ``UniqueKeys``): lists that named them name the one kept.
        var duplicates: [(table: String, loser: SQLValue, winner: SQLValue)] = []
    }

    /// Merges `changes`, pulled from `space` (a group's ID; nil for the account's own objects).
    ///
    /// - Throws: ``QSSyncError/stampTooFarAhead(table:id:stamp:)`` when a change carries a stamp
    ///   the clock can't take; nothing of `changes` is merged then.
    func apply(_ changes: [SyncChange], space: String?, on connection: SQLiteConnection) throws -> Outcome {
        try refuseStampsTooFarAhead(in: changes)
        var batch = Batch()
        // Edits before creations: a creation whose unique key an object here held is then
        // weighed against that object's key as this pull leaves it. (Merging is the same in any order.)
        let ordered = changes.filter { $0.created == nil } + changes.filter { $0.created != nil }
        for change in ordered {
            guard let table = schema.tables[change.table] else {
                // A newer version's table: kept whole for when this device updates.
                batch.outcome.unknownTables.insert(change.table)
                try KeptParts.keep(change.record, of: change.ids, in: change.table, space: space, where: { _ in true }, on: connection)
                continue
            }
            let (incoming, unknown) = split(change.record, of: table)
            // A newer version's properties: kept for when this device updates.
            try KeptParts.keep(unknown, of: change.ids, in: table.name, space: space, where: { _ in true }, on: connection)
            if let latest = change.record.latestStamp { clock.observe(latest) }
            let ids = change.ids.filter { $0.fits(table.uniqueIDType) }.map(\.sqlValue)
            try apply(incoming, to: ids, of: table, on: connection, batch: &batch)
            if let space { try GroupSpaces.record(space, of: ids, table: table.name, on: connection) }
        }
        try rewriteLists(naming: batch.inserted, on: connection)
        for duplicate in batch.duplicates {
            try redirectLists(from: duplicate.loser, to: duplicate.winner, childTable: duplicate.table, on: connection)
        }
        return batch.outcome
    }

    /// Throws for the first change whose latest stamp the clock can't take (see
    /// ``HybridLogicalClock/canReceive(_:)``), before anything is merged or observed.
    private func refuseStampsTooFarAhead(in changes: [SyncChange]) throws {
        for change in changes {
            guard let latest = change.record.latestStamp, !clock.canReceive(latest) else { continue }
            throw QSSyncError.stampTooFarAhead(table: change.table, id: change.ids.map(\.json).joined(separator: ", "), stamp: latest.text)
        }
    }

    /// The parts of `record` this model syncs, under the names it has now (an older device may
    /// send a renamed one's old name), and the parts it doesn't know.
    private func split(_ record: SyncRecord, of table: SyncedTable) -> (known: SyncRecord, unknown: SyncRecord) {
        var known = SyncRecord(created: record.created, deleted: record.deleted)
        var unknown = SyncRecord()
        for (name, stamp) in record.stamps {
            let current = history.currentName(of: name, in: table.name)
            if table.syncs(current) || table.list(named: current) != nil {
                known.stamps[current] = stamp
                known.values[current] = record.values[name]
            } else {
                unknown.stamps[name] = stamp
                unknown.values[name] = record.values[name]
            }
        }
        return (known, unknown)
    }

    /// Merges what was kept of `added` (by table, names the model syncs now and didn't before,
    /// `*` for a whole table) as if it had just arrived. The records already hold the zero stamp
    /// for the added columns (``LocalRecord/markAddedColumnsNeverSet(_:schema:on:)``), so what was kept wins.
    func mergeKept(_ added: [String: Set<String>], on connection: SQLiteConnection) throws {
        for (name, names) in added.sorted(by: { $0.key < $1.key }) {
            guard schema.tables[name] != nil else { continue }
            let wholeTable = names.contains("*")
            let changesBySpace = try KeptParts.take(from: name, where: { part in
                wholeTable || names.contains(part) || SyncListPart(name: part).map { names.contains($0.list) } ?? false
            }, on: connection)
            for (space, changes) in changesBySpace.sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) {
                _ = try apply(changes, space: space, on: connection)
            }
        }
    }

    /// Rewrites the lists that name children just inserted here: a list's parts may come before
    /// its children do.
    private func rewriteLists(naming inserted: [String: [SQLValue]], on connection: SQLiteConnection) throws {
        for table in schema.tableNames.compactMap({ schema.tables[$0] }) {
            for list in table.lists {
                guard let childTable = table.childTables[list.name], let children = inserted[childTable], !children.isEmpty else { continue }
                let parents = try connection.fetchRows("""
                    SELECT DISTINCT parentID FROM qsdata_sync_list_items
                    WHERE tableName = ? AND list = ? AND listed IS NOT NULL AND childID IN (SELECT value FROM json_each(?))
                    """, [.text(table.name), .text(list.name), IDList.json(children)]).compactMap(\.first)
                let held = try existingRows(parents, of: table, on: connection)
                let records = try LocalRecord.load(parents.filter(held.contains), table: table, on: connection)
                let writer = RowWriter(table: table, connection: connection)
                for (parent, record) in records { try writer.rewriteList(list.name, of: parent, from: record) }
            }
        }
    }

    private func apply(_ incoming: SyncRecord, to ids: [SQLValue], of table: SyncedTable, on connection: SQLiteConnection, batch: inout Batch) throws {
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
            let creationHere = record.created.flatMap { $0.replica == clock.replica ? $0 : nil }
            let incomingRecord = lists.record(for: record)
            let merge = record.merge(incomingRecord)
            guard merge.changedAnything else { continue }
            batch.outcome.applied += 1
            if merge.tookCreation { Self.markNeverSet(table.columnNames, notNamedBy: incomingRecord, in: &record) }
            try LocalRecord.save(record, id: id, table: table.name, on: connection)
            if !merge.exists {
                // Deleted. When the deletion came from the server, nothing of the object waits to
                // be pushed any more; when it was made here (an edit from elsewhere merged into an
                // object deleted here), the deletion itself still waits. Its lookup rows go even
                // if this replica never had its row: a list that arrived before the deletion may
                // name it.
                if merge.tookDeletion { try writer.forgetOutbox(of: id) }
                try ListItems.forget(parent: id, table: table.name, on: connection)
                try BlobColumns.forget(table.name, id: id, on: connection)
                if existing.contains(id) || merge.tookDeletion { try writer.delete(id) }
                continue
            }
            // Deleted and created again since, both in this pull: what its lists held before the
            // deletion went with it, as it does when the two arrive apart.
            let dropped = merge.tookDeletion ? ListItems.takeParts(of: &record, stampedBefore: record.deleted) : []
            let listParts = merge.tookProperties.compactMap(SyncListPart.init(name:))
            try ListItems.save(listParts + dropped + (adopted[id] ?? []), of: record, parent: id, table: table.name, on: connection)
            if merge.tookCreation, let creationHere {
                try queueWhatOnlyTheCreationCarried(of: record, id: id, createdHere: creationHere, merge: merge, table: table.name, on: connection)
            }
            try writer.forgetOutbox(of: id, parts: merge.tookProperties + dropped.map(\.name) + (merge.tookCreation ? [OutboxPart.creation] : []))
            var columns = merge.tookProperties.compactMap { name in
                table.column(named: name) != nil ? incoming.values[name].map { (name, $0) } : nil
            }
            // A blob column that now names bytes not here is NULL until they are downloaded.
            var awaited: [(property: String, blob: SyncBlobReference)] = []
            for (offset, (name, value)) in columns.enumerated() where table.blobs[name] != nil {
                try BlobColumns.forget(table.name, id: id, property: name, on: connection)
                if case .blobReference(let blob) = value {
                    awaited.append((name, blob))
                    columns[offset].1 = .null
                }
            }
            let changedLists = Set((listParts + dropped).map(\.list))
            if existing.contains(id) {
                // An edit that gives it a key another object here holds: one of the two stays.
                if let key = table.uniqueKey, merge.tookProperties.contains(key) {
                    guard try makeRoom(for: id, created: record.created, values: record.values, in: table, on: connection, batch: &batch) else { continue }
                    batch.keys[table.name]?.note(record.values, heldBy: id)
                }
                if merge.tookDeletion { try resetWhatTheDeletionTook(from: id, record: record, table: table, writer: writer, on: connection) }
                try writer.update(id, with: columns)
            } else {
                if table.uniqueKey != nil, try !makeRoom(for: id, created: record.created, values: record.values, in: table, on: connection, batch: &batch) {
                    continue
                }
                guard try writer.insert(id, with: columns) else {
                    batch.outcome.incomplete += 1
                    continue
                }
                batch.inserted[table.name, default: []].append(id)
                batch.keys[table.name]?.note(record.values, heldBy: id)
            }
            for (property, blob) in awaited { try BlobColumns.await(blob, for: property, of: id, in: table.name, on: connection) }
            for name in changedLists.sorted() { try writer.rewriteList(name, of: id, from: record) }
        }
    }

    /// The same uniqueID created here and elsewhere, the other creation later: when this
    /// replica's creation still waits to be pushed, what it set that the other did not take is
    /// queued part by part, since the creation that would have carried it is no longer pushed:
    /// the children it listed, and the properties the other creation left out (an older app's,
    /// which knows fewer). Edits made here since the creation wait as parts of their own. (A
    /// deletion between the two creations has taken the children listed before it out already:
    /// see ``ListItems/takeParts(of:stampedBefore:)``.)
    private func queueWhatOnlyTheCreationCarried(
        of record: SyncRecord, id: SQLValue, createdHere creation: SyncStamp, merge: SyncMergeOutcome, table: String, on connection: SQLiteConnection
    ) throws {
        // A deletion after this replica's creation took what it set (see `apply`).
        guard record.deleted.map({ creation > $0 }) ?? true else { return }
        guard try Outbox.waits(OutboxPart.creation, of: id, in: table, on: connection) else { return }
        let taken = Set(merge.tookProperties)
        for (name, stamp) in record.stamps.sorted(by: { $0.key < $1.key }) where stamp == creation && !taken.contains(name) {
            try Outbox.queue([name], of: id, in: table, at: stamp, on: connection)
        }
    }

    /// Deleted and created again, both in this pull, onto a row held here: a column the deletion
    /// took and the new creation does not set (an older app's names fewer) is as in a fresh row,
    /// as it is where the two arrive apart, and an edit of it made here before the deletion is no
    /// longer pushed. (The unique key keeps its value: a default could be another object's key.)
    private func resetWhatTheDeletionTook(
        from id: SQLValue, record: SyncRecord, table: SyncedTable, writer: RowWriter, on connection: SQLiteConnection
    ) throws {
        guard let deleted = record.deleted else { return }
        let taken = table.columnNames.filter { name in
            name != table.uniqueKey && (record.stamps[name].map { $0 <= deleted } ?? true)
        }
        try writer.resetToDefaults(id, columns: taken)
        try writer.forgetOutbox(of: id, parts: taken)
        for name in taken where table.blobs[name] != nil { try BlobColumns.forget(table.name, id: id, property: name, on: connection) }
    }

    /// A creation just taken that does not name some of the table's columns (one from an app
    /// whose model has fewer) set nothing there: those this record holds no stamp for are kept
    /// as never set (the zero stamp) rather than as set by the creation, which a column stored
    /// without a stamp would be read as. Any value that arrives for them later then wins here, as
    /// it does on the server, which holds no stamp for them either.
    private static func markNeverSet(_ columns: [String], notNamedBy creation: SyncRecord, in record: inout SyncRecord) {
        for column in columns where creation.stamps[column] == nil && record.stamps[column] == nil {
            record.stamps[column] = .zero
        }
    }

    private func existingRows(_ ids: [SQLValue], of table: SyncedTable, on connection: SQLiteConnection) throws -> Set<SQLValue> {
        Set(try TableRows.existing(ids.compactMap(SyncID.init(sqlValue:)), in: table.name, on: connection).map(\.sqlValue))
    }
}
