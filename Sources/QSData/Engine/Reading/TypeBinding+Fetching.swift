/// Reading rows into instances, on the database queue.
extension TypeBinding {
    /// Fetches the rows `request` selects, with their relationships, reusing cached instances.
    ///
    /// Statements: one per relationship for its lookup rows, at most one per eagerly loaded
    /// relationship for children not cached, and one for the rows themselves, whatever the
    /// number of rows. Instances the cache keeps get a snapshot of what was read (see ``RowSnapshot``).
    func fetch(_ request: FetchRequest, in context: QueueContext) throws -> [Object] {
        var extraValues: [SQLValue] = []
        return try fetch(request, in: context, extraValues: &extraValues)
    }

    /// ``fetch(_:in:)``, appending each row's ``FetchRequest/extraColumns`` to `extraValues`,
    /// row after row, whether its instance was made or found alive.
    func fetch(_ request: FetchRequest, in context: QueueContext, extraValues: inout [SQLValue]) throws -> [Object] {
        let tail = request.tail
        // A read that bypasses the cache makes fresh instances and leaves the cache alone.
        let caches = cachePolicy != .none && !request.bypassesCache
        // 1. Each relationship's lookup rows, then (when loaded eagerly) the children they name.
        // Each relationship's lookup rows, in the model's order (what `QSRow.related` indexes).
        var related: [ChildrenByParent?] = []
        var lookupRows: [LookupRows] = []
        for (relationship, relationshipSQL) in zip(description.relationships, sql.relationships) {
            guard let childBinding = context.registry.binding(named: relationship.childType) else {
                related.append(nil)
                continue
            }
            let rows = try readLookupRows(relationshipSQL.pairs(parentsWhere: tail), request.arguments, context)
            if (request.loading[relationship.name] ?? relationship.loading) == .lazy {
                related.append(ChildIDsByParent(rows))
            } else {
                related.append(try childBinding.childrenByParent(rows, through: relationship.name, of: description.name, in: context))
            }
            if caches { lookupRows.append(rows) }
        }

        // 2. The rows, each made into an instance unless a live one exists.
        let statement = try context.connection.statement(sql.select(adding: request.extraColumns) + tail)
        try statement.bind(request.arguments)
        defer { statement.reset() }
        let row = QSRow(layout: layout, statement: statement)
        let extraColumns = Int32(layout.count) ..< Int32(layout.count + request.extraColumns.count)
        if !caches && related.isEmpty && extraColumns.isEmpty {
            let objects = try Object._instances(from: QSRowReader(row: row, statement: statement))
            rememberExisting(objects, in: context)
            return objects
        }
        row.relatedObjects = related
        var encoder = QSRowEncoder(layout: layout)
        var lookupCursors = Array(repeating: 0, count: lookupRows.count)
        let known = caches ? context.state.knownRows(of: self) : nil
        let isWeak = cachePolicy == .weak
        let trust = context.state.snapshotTrust
        // The snapshot epoch, known once the first row is read (SQLite has then looked at the
        // file); 0 until then, which no snapshot is kept in.
        var epoch: UInt64 = 0
        let objects = AppendedList<Object>()
        let hashing = IDHashing()
        var madeIDs: [QSAnyID] = []
        var madeHashes: [UInt64] = []
        var made: [Instance] = []
        while try statement.step() {
            row.advance()
            for column in extraColumns { extraValues.append(statement.value(at: column)) }
            let id = try Object.UniqueID.read(from: row, at: 0).anyID
            var keepsSnapshot = false
            // Hashed once for the queue's table and the main actor's (see `IDHashing`); never
            // looked at without a table.
            let hash = known == nil ? 0 : hashing.hash(of: id)
            if let known {
                if epoch == 0 {
                    trust.noticeChanges(on: context.connection)
                    epoch = trust.epoch
                }
                if isWeak {
                    let found = known.weakInstanceOrKeptSnapshot(for: id, hash: hash, epoch: epoch)
                    if let instance = found.instance {
                        objects.append(Instance.typedReference(instance, as: Object.self))
                        continue
                    }
                    keepsSnapshot = found.keepsSnapshot
                } else if let instance = known.instance(for: id, hash: hash) {
                    objects.append(Instance.typed(instance, as: Object.self))
                    continue
                }
            }
            row.parentID = id
            var object = try Object(row: row)
            object.awakeFromFetch()
            if let known, let instance = Instance.of(object, policy: cachePolicy) {
                if context.readsOnReader {
                    // Kept for the rest of this read only, so that the row is made once; the
                    // main actor decides whether it keeps the instance (see `ReaderFetch`).
                    known.insert(instance, id: id, hash: hash)
                } else if keepsSnapshot {
                    // The row's earlier instance died, and its snapshot still says what the row
                    // holds: kept, rather than encoding the same again.
                    known.insert(instance, id: id, hash: hash)
                    for position in lookupRows.indices { lookupRows[position].skip(id, cursor: &lookupCursors[position]) }
                } else {
                    let snapshot = try snapshot(of: object, id: id, lookups: lookupRows, cursors: &lookupCursors, encoder: &encoder, epoch: epoch)
                    known.insert(instance, id: id, hash: hash, snapshot: snapshot)
                }
                madeIDs.append(id)
                madeHashes.append(hash)
                made.append(instance)
            }
            objects.append(object)
        }
        context.made.record(self, ids: madeIDs, hashes: madeHashes, instances: made)
        let fetched = objects.finished()
        rememberExisting(fetched, in: context)
        return fetched
    }

    /// Records that the rows of fetched value-type children exist (see ``KnownValueRows``), as of
    /// the file's data version the fetch read.
    private func rememberExisting(_ objects: [Object], in context: QueueContext) {
        let known = context.state.knownValueRows
        guard !cachesInstances, !objects.isEmpty, known.tracks(description.table) else { return }
        // The version the fetch's read saw: another connection's commit since moves it only
        // when the connection next reads.
        context.state.snapshotTrust.noticeChanges(on: context.connection)
        // The IDs gathered through a buffer into a list of a concrete type: a lazy map over the
        // objects, in this unspecialised code, ran the standard library's generic iteration and
        // looked up metadata for every element (about 1,500 instructions an object).
        var ids: [QSAnyID] = []
        ids.reserveCapacity(objects.count)
        objects.withUnsafeBufferPointer { buffer in
            for object in buffer { ids.append(object.uniqueID.anyID) }
        }
        known.insert(ids, in: description.table)
    }

    /// What a save of the fresh, unchanged instance would write: its encoding and its lookup rows.
    private func snapshot(
        of object: Object, id: QSAnyID, lookups: [LookupRows], cursors: inout [Int], encoder: inout QSRowEncoder, epoch: UInt64
    ) throws -> RowSnapshot {
        // An instance that records what it sets needs no hash of the row's values.
        var valuesHash: RowHash?
        if !tracksChanges {
            object.encode(to: &encoder)
            valuesHash = try encoder.finishHashing()
        }
        var lookupSnapshots: [LookupSlot] = []
        lookupSnapshots.reserveCapacity(lookups.count)
        for position in lookups.indices {
            lookupSnapshots.append(LookupSlot(rows: lookups[position].snapshot(of: id, cursor: &cursors[position])))
        }
        return RowSnapshot(valuesHash: valuesHash, lookups: lookupSnapshots, epoch: epoch)
    }

    private func readLookupRows(_ sql: String, _ arguments: [SQLValue], _ context: QueueContext) throws -> LookupRows {
        let statement = try context.connection.statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var rows = LookupRows()
        while try statement.step() {
            rows.append(parent: QSAnyID(column: statement.value(at: 0)), child: QSAnyID(column: statement.value(at: 1)), index: statement.int64(at: 2))
        }
        rows.finish()
        return rows
    }

    /// Each distinct child of `rows` made (or found in the cache) once, then listed flat in the
    /// rows' order; a lookup row whose child was deleted (an orphan row) lists nil and is skipped.
    /// `rows` are those of `relationship`, of `parentType`, loaded eagerly.
    ///
    /// The children not cached are fetched with their own eager relationships, one level deeper
    /// (a fetch stops at ``QSStore/deepestEagerLoading`` levels).
    func childrenByParent(_ rows: LookupRows, through relationship: String, of parentType: String, in context: QueueContext) throws -> ChildrenByParent {
        let distinct = rows.distinctChildren
        var (children, missing) = knownInstances(for: distinct.ids, in: context)
        if !missing.isEmpty {
            let deeper = try context.followingEagerRelationship(relationship, of: parentType)
            let fetched = try fetch(.ids(missing), in: deeper)
            // Through buffers: in this unspecialised code, each step of the arrays' own iteration
            // and subscripts would look their type's metadata up (see `AppendedList`).
            children.withUnsafeMutableBufferPointer { childBuffer in
                fetched.withUnsafeBufferPointer { fetchedBuffer in
                    for child in fetchedBuffer {
                        if let position = distinct.position(of: child.uniqueID.anyID) { childBuffer[position] = child }
                    }
                }
            }
        }
        return ChildrenByParentOf(runs: rows.runs, children: children, positionOfRow: distinct.positionOfRow)
    }

    /// The instances the queue knows for `ids`, in order (nil where none is alive), and the IDs
    /// that have none.
    private func knownInstances(for ids: [QSAnyID], in context: QueueContext) -> (found: [Object?], missing: [QSAnyID]) {
        guard cachePolicy != .none else { return (Array(repeating: nil, count: ids.count), ids) }
        let known = context.state.knownRows(of: self)
        if let mainActor = context.heldOnMainActor {
            // A reader's table has only what this read made: the main actor is asked for the rest.
            let unknown = ids.filter { known.instance(for: $0) == nil }
            if !unknown.isEmpty {
                for (id, instance) in zip(unknown, mainActor.instances(of: self, for: unknown)) {
                    if let instance { known.insert(instance, id: id) }
                }
            }
        }
        let found = AppendedList<Object?>(capacity: ids.count)
        var missing: [QSAnyID] = []
        if cachePolicy == .weak {
            for (id, instance) in zip(ids, known.weakInstances(for: ids)) {
                found.append(instance.map { Instance.typedReference($0, as: Object.self) })
                if instance == nil { missing.append(id) }
            }
        } else {
            for (id, instance) in zip(ids, known.instances(for: ids)) {
                found.append(instance.map { Instance.typed($0, as: Object.self) })
                if instance == nil { missing.append(id) }
            }
        }
        return (found.finished(), missing)
    }
}
