/// Bringing the instances a type keeps in step with rows that another writer changed.
extension TypeBinding {
    /// Database queue: re-reads the rows of `ids` whose instances the store keeps, records what
    /// they hold now as their snapshots, and returns the main-actor work that patches the
    /// instances (see ``mergeOutsideChanges(fresh:before:gone:)``) and returns the IDs it patched
    /// or dropped. A type that keeps every instance (`cachePermanently`) also reads the rows it
    /// did not know yet. `read` numbers the read (see ``ReplacedSnapshots``). With a write transaction's `tracker`, the snapshots replaced and the
    /// rows found gone are undone if that transaction rolls back.
    func outsideChangeWork(
        ids: [QSAnyID], in context: QueueContext, read: UInt64, tracker: ChangeTracker?
    ) throws -> @MainActor @Sendable () -> [QSAnyID] {
        guard cachePolicy != .none, !ids.isEmpty else { return { [] } }
        let known = context.state.knownRows(of: self)
        let held = known.knownIDs(among: ids)
        if description.cachePermanently {
            let heldSet = Set(held)
            let new = ids.filter { !heldSet.contains($0) }
            if !new.isEmpty { _ = try fetch(.ids(new), in: context) }  // handed up with the made instances
        }
        guard !held.isEmpty else { return { [] } }
        let before = known.snapshots(for: held, isKnownMissing: held.map { _ in false })
        context.state.replacedSnapshots.keep(before, of: held, binding: self, replacedBy: read)
        var request = FetchRequest.ids(held)
        request.bypassesCache = true
        let fresh = try fetch(request, in: context)

        // What the rows hold now becomes their snapshots; their lookup rows are read again when
        // next needed.
        var encoder = QSRowEncoder(layout: layout)
        var ids: [QSAnyID] = []
        var snapshots: [RowSnapshot] = []
        var found: Set<QSAnyID> = []
        for object in fresh {
            // An instance that records what it sets needs no hash of the row's values.
            var valuesHash: RowHash?
            if !tracksChanges {
                object.encode(to: &encoder)
                valuesHash = try encoder.finishHashing()
            }
            let id = object.uniqueID.anyID
            found.insert(id)
            ids.append(id)
            snapshots.append(RowSnapshot(valuesHash: valuesHash, lookups: Array(repeating: .unknown, count: description.relationships.count), epoch: 0))
        }
        known.setSnapshots(snapshots, of: ids)
        let gone = held.filter { !found.contains($0) }
        if let tracker {
            tracker.recordReread(ids, in: known)
            tracker.recordRemoval(gone, from: known)
        } else {
            _ = known.removeFoundDeleted(gone)
        }

        var beforeByID: [QSAnyID: RowSnapshot] = [:]
        for (id, snapshot) in zip(held, before) { beforeByID[id] = snapshot }
        let transit = ObjectsInTransit(value: (fresh, beforeByID))
        return { self.mergeOutsideChanges(fresh: transit.value.0, before: transit.value.1, gone: gone) }
    }

    /// Main actor: patches each held instance to its row as another writer left it. A column the
    /// app changed in memory and has not saved (one the instance marked, for a type that records
    /// what it sets; otherwise one that differs from what the store last knew of the row, unless
    /// the other writer changed that column too) keeps the app's value; every other column, and
    /// every relationship, takes the row's. Instances of rows that are gone are dropped.
    @MainActor func mergeOutsideChanges(fresh: [Object], before: [QSAnyID: RowSnapshot], gone: [QSAnyID]) -> [QSAnyID] {
        var encoder = QSRowEncoder(layout: layout)
        let row = QSRow(layout: layout, values: [], parentID: .integer(0))
        var patched: [QSAnyID] = []
        for object in fresh {
            guard let current = cache.object(for: object.uniqueID) else { continue }
            let id = object.uniqueID.anyID
            do {
                object.encode(to: &encoder)
                let (stored, related) = try encoder.finish()
                current.encode(to: &encoder)
                let held = try encoder.finish().values
                var values = stored
                if let changeMarks {
                    // An unsaved edit in memory wins, and so does one a save took that was not
                    // written when the row was read.
                    for index in changeMarks.markedColumns(of: Instance.reference(current), layout: layout).union(cache.columnsMarkedInFlight(of: id)) {
                        values[index] = held[index]
                    }
                } else if let shown = before[id]?.valuesHash {
                    // An unsaved edit in memory wins, where the store can tell it from the other
                    // writer's change (see `ColumnsTheAppChanged`).
                    for index in ColumnsTheAppChanged.find(in: held, current: stored, shown: shown) {
                        values[index] = held[index]
                    }
                }
                try replace(current, values: values, related: related, id: id, using: row)
            } catch {
                // An instance that can't take the row's values is forgotten: the next fetch reads it.
                cache.removeKeepingRows([id])
            }
            patched.append(id)
        }
        patched += cache.removeDeleted(gone).map { $0.uniqueID.anyID }
        return patched
    }
}
