/// The rows of a ``KnownRows``, holding instances as `Held` says (weakly or strongly) and keeping
/// snapshots as `Stored` says (whole, or only their epoch). A value, used only through its
/// concrete types, so that its code is compiled for each of them. Each method changes the table
/// in one access to it.
struct KnownRowTable<Held: HeldInstance, Stored: StoredSnapshot> {
    /// One row's instance with its snapshot.
    ///
    /// Read and changed only where it lies in the table (through ``IDTable/update(at:_:)``): a
    /// copy of the entry would copy the weak reference (atomic operations on the instance's side
    /// table) and retain each of the snapshot's arrays.
    private struct Row {
        var held = Held()
        var stored = Stored()

        /// Holds `instance` from now on (when there is one), and returns the row's snapshot. When
        /// instances record what they set, a snapshot is true only beside the instance read or
        /// written with it: another instance (one the app made, or one after the last died)
        /// loses it, and its row is written whole.
        mutating func adopt(_ instance: Instance?, tracksChanges: Bool) -> RowSnapshot? {
            if let instance {
                if tracksChanges { holdLosingAnotherInstancesSnapshot(instance) } else { held.hold(instance) }
            }
            return stored.snapshot
        }

        /// Kept out of ``adopt(_:tracksChanges:)``: there, its comparison made the compiler copy
        /// the instance for every type (a retain and a release on the slow path of an object with
        /// a weak reference).
        @inline(never)
        private mutating func holdLosingAnotherInstancesSnapshot(_ instance: Instance) {
            if !held.holds(instance) { stored = Stored() }
            held.hold(instance)
        }
    }

    let tracksChanges: Bool
    /// Swept a step per new entry when instances can die, so that dead entries go without ever
    /// stopping to scan the whole table (see ``IDTable/sweep(afterAdding:isDead:)``). A dead
    /// entry goes with its snapshot: a row no one holds is read afresh when fetched again.
    private var entries = IDTable<Row>()

    init(tracksChanges: Bool) {
        self.tracksChanges = tracksChanges
    }

    mutating func instances(for ids: [QSAnyID]) -> [Any?] {
        ids.map { instance(for: $0) }
    }

    mutating func weakInstances(for ids: [QSAnyID]) -> [AnyObject?] {
        ids.map { id in
            guard let position = entries.position(of: id) else { return nil }
            return entries.update(at: position) { row in
                if case .weak(let instance) = row.held.instance { return instance }
                return nil
            }
        }
    }

    mutating func weakInstanceOrKeptSnapshot(for id: QSAnyID, hash: UInt64, epoch: UInt64) -> (instance: AnyObject?, keepsSnapshot: Bool) {
        guard let position = entries.position(of: id, hash: hash) else { return (nil, false) }
        return entries.update(at: position) { row in
            if case .weak(let instance) = row.held.instance { return (instance, false) }
            return (nil, row.stored.isKept(in: epoch))
        }
    }

    mutating func instance(for id: QSAnyID) -> Any? {
        instance(for: id, hash: entries.hash(of: id))
    }

    mutating func instance(for id: QSAnyID, hash: UInt64) -> Any? {
        guard let position = entries.position(of: id, hash: hash) else { return nil }
        return entries.update(at: position) { $0.held.value }
    }

    mutating func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot?) {
        insert(instance, id: id, hash: entries.hash(of: id), snapshot: snapshot)
    }

    mutating func insert(_ instance: Instance, id: QSAnyID, hash: UInt64, snapshot: RowSnapshot?) {
        let stored = snapshot.map(kept)
        let (position, isNew) = entries.position(adding: id, hash: hash) { Row() }
        entries.update(at: position) { row in
            row.held.hold(instance)
            if let stored { row.stored = stored }
        }
        if isNew { sweep(afterAdding: 1) }
    }

    mutating func adoptRead(_ instance: Instance, id: QSAnyID, epoch: UInt64) {
        let (position, isNew) = entries.position(adding: id) { Row() }
        entries.update(at: position) { row in
            row.held.hold(instance)
            if !row.stored.isKept(in: epoch) { row.stored = Stored() }
        }
        if isNew { sweep(afterAdding: 1) }
    }

    mutating func adopt(_ instances: [Instance?], ids: [QSAnyID]) -> [RowSnapshot?] {
        var snapshots: [RowSnapshot?] = []
        snapshots.reserveCapacity(ids.count)
        let oldCount = entries.count
        for index in ids.indices {
            let id = ids[index]
            guard instances[index] != nil else {
                snapshots.append(entries.position(of: id).flatMap { position in entries.update(at: position) { $0.stored.snapshot } })
                continue
            }
            let position = entries.position(adding: id) { Row() }.position
            // Read inside the change, next to the assignment: read before it, the instance would
            // be copied (a retain and a release on the slow path of an object with a weak reference).
            snapshots.append(entries.update(at: position) { $0.adopt(instances[index], tracksChanges: tracksChanges) })
        }
        // Only a new entry grows the table, so only a new entry pays for sweeping. The save holds
        // the instances of its new entries, so no sweep step needs to look at those.
        sweep(afterAdding: entries.count - oldCount)
        return snapshots
    }

    mutating func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        zip(ids, isKnownMissing).map { id, isKnownMissing in
            guard !isKnownMissing, let position = entries.position(of: id) else { return nil }
            return entries.update(at: position) { $0.stored.snapshot }
        }
    }

    mutating func setSnapshots(_ snapshots: consuming [RowSnapshot], of ids: [QSAnyID]) {
        // Taken from the end, so that each snapshot moves into its entry instead of being copied
        // (a retain of each of its arrays, which the main actor has just written).
        var index = snapshots.count
        while let snapshot = snapshots.popLast() {
            index -= 1
            guard let position = entries.position(of: ids[index]) else { continue }
            let stored = kept(snapshot)
            entries.update(at: position) { $0.stored = stored }
        }
    }

    mutating func forgetSnapshots(of ids: [QSAnyID]) {
        for id in ids {
            guard let position = entries.position(of: id) else { continue }
            entries.update(at: position) { $0.stored = Stored() }
        }
    }

    /// The rows `ids` changed in place: their snapshots no longer say what their columns hold.
    /// Snapshots without values (see ``tracksChanges``) have nothing to forget.
    mutating func forgetValues(of ids: [QSAnyID]) {
        guard !tracksChanges else { return }
        for id in ids {
            guard let position = entries.position(of: id) else { continue }
            entries.update(at: position) { $0.stored.forgetValues() }
        }
    }

    func knownIDs(among ids: [QSAnyID]) -> [QSAnyID] {
        ids.filter { entries.position(of: $0) != nil }
    }

    var allIDs: [QSAnyID] { entries.allKeys }

    mutating func remove(_ ids: [QSAnyID]) {
        for id in ids { entries.remove(id) }
    }

    mutating func removeReturningInstances(_ ids: [QSAnyID]) -> [(id: QSAnyID, instance: Instance)] {
        var removed: [(id: QSAnyID, instance: Instance)] = []
        for id in ids {
            if let instance = entries.remove(id)?.held.instance { removed.append((id, instance)) }
        }
        return removed
    }

    mutating func putBack(_ instance: Instance, id: QSAnyID) {
        guard entries.position(of: id) == nil else { return }
        insert(instance, id: id, snapshot: nil)
    }

    mutating func pruneDeadEntries() {
        entries.keepOnly { !$0.held.isDead }
    }

    /// `snapshot` as this table keeps it: without values when the instances record what they set.
    private func kept(_ snapshot: RowSnapshot) -> Stored {
        Stored(tracksChanges ? snapshot.withoutValues : snapshot)
    }

    /// A table whose instances never die is never swept.
    private mutating func sweep(afterAdding added: Int) {
        guard Held.canDie else { return }
        entries.sweep(afterAdding: added) { $0.held.isDead }
    }
}
