/// Turning instances into rows to save, and patching cached instances, on the main actor.
@MainActor
extension TypeBinding {
    /// Encodes the objects at `range` of `objects` (and their children) into `batch`, with the
    /// instances for the main actor's tables to keep (``SaveBatch/keepEncodedInstances()``, once
    /// the save can no longer fail before its SQL runs).
    func encode(_ objects: [Object], in range: Range<Int>, into batch: inout SaveBatch, registry: TypeRegistry) throws {
        let group = batch.groupIndex(for: self)
        batch.groups[group].reserveCapacity(adding: range.count)
        try encode(objects, in: range, throughParent: false, group: group, into: &batch, registry: registry)
        // Then the children those objects reach, and theirs, a level at a time (see
        // `SaveBatch.addPendingChildren`).
        while let pending = batch.takePendingChildren() {
            try pending.binding.addChildren(pending.children, to: &batch, registry: registry)
        }
    }

    /// Encodes `children`, reached through a parent's relationship, into `batch`; the children
    /// they list in turn wait in `batch` for their turn.
    func addChildren(_ children: any RelatedChildren, to batch: inout SaveBatch, registry: TypeRegistry) throws {
        guard let typedChildren = children.children(as: Object.self) else {
            throw QSDataError.typeMismatch(
                type: description.name,
                problems: ["a relationship to \(description.name) was given children of type \(children.childTypeName)"])
        }
        let group = batch.groupIndex(for: self)
        try encode(typedChildren, in: 0 ..< typedChildren.count, throughParent: true, group: group, into: &batch, registry: registry)
    }

    /// Encodes the objects at `range` of `objects` into the group at `group`, as objects saved
    /// themselves or as children reached through a parent, each row with its instance, which the
    /// main actor's table keeps once the save can no longer fail.
    ///
    /// Indexes come from a range of Int, not `indices` nor an array of `Object`: in this
    /// unspecialised code those look up generic metadata at run time. Each object is read in place
    /// (see `InPlace`): a copy would be a retain and a release of it through its type's value
    /// witnesses, on the slow path for a held instance.
    private func encode(
        _ objects: [Object], in range: Range<Int>, throughParent: Bool, group: Int, into batch: inout SaveBatch, registry: TypeRegistry
    ) throws {
        let skipsUnchanged = skipsUnchanged(in: batch, registry: registry)
        let claimsSavedIDs = !throughParent && registry.reachesItself(self)
        let childBindings = childBindings(in: registry)
        try objects.withUnsafeBufferPointer { buffer in
            let objects = InPlace(buffer)
            for index in range {
                guard let position = try encode(
                    &objects[index], group: group, throughParent: throughParent, claimsSavedID: claimsSavedIDs,
                    skipsUnchanged: skipsUnchanged, childBindings: childBindings, into: &batch, registry: registry)
                else { continue }
                if let instance = cache.instance(of: &objects[index]) { batch.groups[group].setInstance(instance, at: position) }
            }
        }
    }

    func keepSavedInstances(_ instances: [Instance?], ids: [QSAnyID], at positions: [Int], stamp: UInt64?) {
        cache.insertFromApp(instances, ids: ids, at: positions, stamp: stamp)
    }

    /// Whether this save leaves the held instances of the type that marked nothing unencoded
    /// (see ``SaveBatch/skipsUnchanged`` for which types can).
    private func skipsUnchanged(in batch: SaveBatch, registry: TypeRegistry) -> Bool {
        batch.skipsUnchanged && changeMarks != nil && description.relationships.isEmpty
            && !registry.siblings(of: self).contains(where: \.cachesInstances)
    }

    /// The registered types of the relationships' children, in the model's order (nil for a type
    /// not registered): looked up once per call that encodes objects, not once per object.
    private func childBindings(in registry: TypeRegistry) -> [(any AnyTypeBinding)?] {
        description.relationships.map { registry.binding(named: $0.childType) }
    }

    /// Encodes `object` into the group at `group`, as an object saved itself or as a child reached
    /// through a parent; returns the position of its row there. With `claimsSavedID`, an object
    /// saved itself claims its uniqueID, so that a copy of it a parent holds (an older one, for a
    /// value type) is not written after it. Returns nil when it adds no row
    /// for the main actor's table to keep: a child the save has encoded already (a tag on many
    /// notes), or, with `skipsUnchanged`, the instance held for its row that marked nothing,
    /// whose row it adds unencoded, with the instance.
    ///
    /// `object` is `inout` only to be read where it lies, never written: in this unspecialised
    /// code, a copy of an object read from an array (or through a pointer) is a retain and a
    /// release through its type's value witnesses, on the slow path for an object that has a weak
    /// reference, as every held instance does.
    private func encode(
        _ object: inout Object, group: Int, throughParent: Bool, claimsSavedID: Bool, skipsUnchanged: Bool,
        childBindings: [(any AnyTypeBinding)?], into batch: inout SaveBatch, registry: TypeRegistry
    ) throws -> Int? {
        let id = object.uniqueID.anyID
        if throughParent {
            guard batch.claimChild(inGroup: group, id: id) else { return nil }
        } else if claimsSavedID {
            batch.claimChild(inGroup: group, id: id)
        }
        if skipsUnchanged, let changeMarks, changeMarks.read(Instance.reference(object)).isEmpty, let held = cache.heldInstance(of: object) {
            batch.groups[group].appendUnchanged(id, instance: held)
            return nil
        }
        batch.groups[group].encode(&object)
        let relationships = try batch.groups[group].takeEncodedValues()
        var markedColumns: [Int] = []
        if let changeMarks {
            let reference = Instance.reference(object)
            let taken = try changeMarks.take(from: reference, layout: layout, description: description)
            batch.noteTaken(taken.marks, from: reference, of: self)
            markedColumns = taken.columns
        }
        let row = batch.groups[group].append(id, throughParent: throughParent, markedColumns: markedColumns)
        // (A failure leaves the group with a row whose children are unknown; the save fails, and
        // its batch with it.)
        try setLookups(of: row, group: group, to: relationships, childBindings: childBindings, into: &batch)
        return row
    }

    /// Sets the lookup slots of the row at `row` of the group at `group`, whose object set
    /// `relationships`, and adds the children listed to those waiting to be encoded. A
    /// relationship the object did not set is left as it is in the database (unknown here).
    private func setLookups(
        of row: Int, group: Int, to relationships: EncodedRelationships, childBindings: [(any AnyTypeBinding)?],
        into batch: inout SaveBatch
    ) throws {
        guard !relationships.isEmpty else { return }
        for (position, relationship) in description.relationships.enumerated() {
            guard let children = relationships[position] else { continue }
            guard let childBinding = childBindings[position] else {
                throw QSDataError.unregisteredType(relationship.childType)
            }
            batch.addPendingChildren(children, of: childBinding)
            let lookup = LookupSnapshot.forNewParent(children.childIDs, knownDistinct: children.childIDsAreDistinct)
            batch.groups[group].setLookup(lookup, at: position, ofRow: row)
        }
    }

    func hasCachedInstance(_ id: QSAnyID) -> Bool {
        guard cache.policy != .none, let typedID = Object.UniqueID(anyID: id) else { return false }
        return cache.object(for: typedID) != nil
    }

    /// Makes cached instances reflect new column values: classes change in place, through
    /// `update(column:from:)` for each column when the type sets them alone and `update(from:)`
    /// otherwise; values are replaced in the cache. Returns the IDs that were cached. What a save
    /// or a bulk update by uniqueIDs patched is noted for the write timings afterwards, by
    /// ``notePatched(_:columns:timing:)``.
    @discardableResult
    func patchCachedInstances(ids: [QSAnyID], with columns: [String: SQLValue], timing: PatchTiming) throws -> [QSAnyID] {
        guard cache.policy != .none else { return [] }
        let overlay = columns.compactMap { name, value in layout.index(of: name).map { (index: $0, value: value) } }
        guard !overlay.isEmpty else { return [] }
        var encoder = QSRowEncoder(layout: layout)
        var patched: [QSAnyID] = []
        // One row for every instance: it learns the order in which the type reads its columns
        // on the first and follows it after that (a new row per instance searched by name each time).
        let row = QSRow(layout: layout, values: [], parentID: .integer(0))
        // Until the first instance says the type doesn't set them alone: the new values alone.
        var columnPatch = updateColumnsInPlace.map { ColumnPatch(overlay, layout: layout, update: $0) }
        for id in ids {
            if let patch = columnPatch {
                // A class: its instance is looked up and patched as the reference it is.
                guard let reference = cache.reference(forAnyID: id), !timing.skips(id, in: cache) else { continue }
                if try patch.apply(to: reference, id: id, keeping: { timing.keeps($0, of: id, in: cache) }) {
                    patched.append(id)
                    continue
                }
                columnPatch = nil
            }
            guard let current = cache.object(forAnyID: id), !timing.skips(id, in: cache) else { continue }
            current.encode(to: &encoder)
            var (values, related) = try encoder.finish()
            for (index, value) in overlay where !timing.keeps(index, of: id, in: cache) { values[index] = value }
            try replace(current, values: values, related: related, id: id, using: row)
            patched.append(id)
        }
        return patched
    }

    /// Notes that the instances for `ids` took the values a save or a bulk update by uniqueIDs
    /// gave `columns` (see ``PatchTiming/record(_:columns:in:)``). Called once every instance the
    /// write reaches has taken them: a write one refuses is never made, and leaves nothing noted
    /// for an earlier write's patch to skip.
    func notePatched(_ ids: [QSAnyID], columns: [String], timing: PatchTiming) {
        guard cache.policy != .none else { return }
        timing.record(ids, columns: { columns.compactMap { layout.index(of: $0) } }, in: cache)
    }

    /// What the cached instances among `ids` hold now in `columns`, for ``putBack(_:)`` to give
    /// back when a bulk update in a batch is refused part-way; nil values for an
    /// instance that can't be encoded.
    func heldValues(ids: [QSAnyID], columns: [String]) -> [(id: QSAnyID, values: [String: SQLValue]?)] {
        guard cache.policy != .none else { return [] }
        let indexed = columns.compactMap { name in layout.index(of: name).map { (name: name, index: $0) } }
        guard !indexed.isEmpty else { return [] }
        var encoder = QSRowEncoder(layout: layout)
        var held: [(id: QSAnyID, values: [String: SQLValue]?)] = []
        for id in ids {
            guard let object = cache.object(forAnyID: id) else { continue }
            object.encode(to: &encoder)
            do {
                let row = try encoder.finish().values
                held.append((id, Dictionary(uniqueKeysWithValues: indexed.map { ($0.name, row[$0.index]) })))
            } catch {
                held.append((id, nil))
            }
        }
        return held
    }

    /// Gives the cached instances back the values ``heldValues(ids:columns:)`` read. An instance
    /// that can't take them is forgotten, so that the next fetch reads its row.
    func putBack(_ held: [(id: QSAnyID, values: [String: SQLValue]?)]) {
        for (id, values) in held {
            do {
                if let values {
                    try patchCachedInstances(ids: [id], with: values, timing: .atOnce)
                    continue
                }
            } catch {}
            cache.removeKeepingRows([id])
        }
    }

    /// Makes the cached `current` hold `values` and `related`: a class changes in place through
    /// `update(from:)`, a value is replaced in the cache.
    func replace(_ current: Object, values: [SQLValue], related: EncodedRelationships, id: QSAnyID, using row: QSRow) throws {
        row.values = values
        if !related.isEmpty || !row.relatedObjects.isEmpty {
            row.relatedObjects = related.asLookups(parentID: id)
        }
        row.advance(parentID: id)
        if let updateInPlace {
            try updateInPlace(current, row)
        } else {
            cache.insertReplacing(try Object(row: row))
        }
    }
}
