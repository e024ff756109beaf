/// What the database queue knows of one caching type's rows: for each row read or written while
/// an instance of it is held, that instance (so that a fetch hands out the one the app holds) and
/// the row's snapshot (see ``RowSnapshot``).
///
/// Owned by the database queue: reached only through ``QueueState``, which only work running on
/// the queue is given. The main actor keeps its own table of the instances it holds
/// (``InstanceTable``); the two exchange instances by value as work crosses the queue.
final class KnownRows {
    typealias Policy = InstanceTable.Policy

    /// One row's instance, held weakly for a uniqued class (stored inline, so keeping one costs no
    /// allocation of its own) and strongly for a permanent cache (boxed: see ``Instance``), with the
    /// row's snapshot.
    ///
    /// Read and changed only where it lies in the table (through ``IDTable/update(at:_:)``): a
    /// copy of the entry would copy the weak reference (atomic operations on the instance's side
    /// table) and retain each of the snapshot's arrays.
    private struct Entry {
        weak var weak: AnyObject?
        var strong: StrongInstance?
        var snapshot: RowSnapshot?

        var instance: Any? { strong?.value ?? weak }
        var isDead: Bool { strong == nil && weak == nil }

        /// Whether a fetch in `epoch` can keep the snapshot for a new instance of the row.
        func keepsSnapshot(in epoch: UInt64) -> Bool { snapshot?.isKept(in: epoch) ?? false }

        /// Holds `instance` from now on, and returns the row's snapshot. When instances record
        /// what they set, a snapshot is true only beside the instance read or written with it:
        /// another instance (one the app made, or one after the last died) loses it, and its
        /// row is written whole.
        mutating func adopt(_ instance: Instance, tracksChanges: Bool) -> RowSnapshot? {
            if tracksChanges, !holds(instance) { snapshot = nil }
            hold(instance)
            return snapshot
        }

        /// Whether `instance` is the very instance held.
        private func holds(_ instance: Instance) -> Bool {
            switch instance {
            case .weak(let object): return weak === object
            case .strong: return strong.map { Instance.strong($0).object === instance.object } ?? false
            }
        }

        /// Holds `instance` from now on, with `snapshot` when given.
        mutating func hold(_ instance: Instance, snapshot: RowSnapshot?) {
            hold(instance)
            if let snapshot { self.snapshot = snapshot }
        }

        mutating func hold(_ instance: Instance) {
            switch instance {
            case .weak(let object):
                weak = object
                strong = nil
            case .strong(let box):
                strong = box
                weak = nil
            }
        }
    }

    let policy: Policy
    /// Whether the instances record which properties they set (see ``QSChangeTrackingObject``):
    /// then a snapshot keeps no values, only that the row is known and its lookup rows.
    let tracksChanges: Bool
    /// Swept a step per new entry, so that dead entries go without ever stopping to scan the
    /// whole table (see ``IDTable/sweep(afterAdding:isDead:)``). A dead entry goes with its
    /// snapshot: a row no one holds is read afresh when fetched again.
    private var entries = IDTable<Entry>()

    init(policy: Policy, tracksChanges: Bool) {
        self.policy = policy
        self.tracksChanges = tracksChanges
    }

    /// The instances for `ids`, in order (nil where none is alive).
    func instances(for ids: [QSAnyID]) -> [Any?] {
        ids.map { id in
            guard let position = entries.position(of: id) else { return nil }
            return entries.update(at: position) { $0.instance }
        }
    }

    /// The weakly held instances for `ids`, in order.
    func weakInstances(for ids: [QSAnyID]) -> [AnyObject?] {
        ids.map { id in
            guard let position = entries.position(of: id) else { return nil }
            return entries.update(at: position) { $0.weak }
        }
    }

    /// What a fetch asks of every row it reads, in one look: the instance alive for `id`, or, when
    /// there is none, whether the snapshot kept from a dead one still says what the row holds in
    /// `epoch` (then a new instance keeps it: see ``insert(_:id:snapshot:)``).
    /// For a weak table only.
    func weakInstanceOrKeptSnapshot(for id: QSAnyID, epoch: UInt64) -> (instance: AnyObject?, keepsSnapshot: Bool) {
        guard let position = entries.position(of: id) else { return (nil, false) }
        return entries.update(at: position) { entry in
            if let instance = entry.weak { return (instance, false) }
            return (nil, entry.keepsSnapshot(in: epoch))
        }
    }

    /// The instance for `id`, if one is alive.
    func instance(for id: QSAnyID) -> Any? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.instance }
    }

    /// Keeps `instance` for `id`: with `snapshot` when given, otherwise with the snapshot the
    /// entry has (a fetch does that only when ``weakInstanceOrKeptSnapshot(for:epoch:)`` said it
    /// can; a save records the row's new snapshot right after).
    func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot? = nil) {
        Self.insert(instance, id: id, snapshot: snapshot.map(kept), policy: policy, into: &entries)
    }

    /// `snapshot` as this table keeps it: without values when the instances record what they set.
    private func kept(_ snapshot: RowSnapshot) -> RowSnapshot {
        tracksChanges ? snapshot.withoutValues : snapshot
    }

    /// ``insert(_:id:snapshot:)`` with the table passed in, so that the whole change is one
    /// access to it.
    private static func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot?, policy: Policy, into entries: inout IDTable<Entry>) {
        let (position, isNew) = entries.position(adding: id) { Entry() }
        entries.update(at: position) { $0.hold(instance, snapshot: snapshot) }
        if isNew, policy == .weak { entries.sweep(afterAdding: 1) { $0.isDead } }
    }

    /// Keeps `instance`, which a read on a reader connection made, for `id`. The row's snapshot
    /// stays only if it is true in `epoch` and knows every relationship (as a fetch would keep
    /// it); otherwise it goes, and the next save of the instance writes the row whole.
    func adoptRead(_ instance: Instance, id: QSAnyID, epoch: UInt64) {
        insert(instance, id: id)
        guard let position = entries.position(of: id) else { return }
        entries.update(at: position) { entry in
            if !entry.keepsSnapshot(in: epoch) { entry.snapshot = nil }
        }
    }

    /// Keeps the instances a save hands over (the app's, which the main actor now holds for these
    /// rows), and returns the snapshots the rows have, in order: one look per row for both.
    func adopt(_ instances: [Instance?], ids: [QSAnyID]) -> [RowSnapshot?] {
        var snapshots: [RowSnapshot?] = []
        snapshots.reserveCapacity(ids.count)
        Self.adopt(instances, ids: ids, policy: policy, tracksChanges: tracksChanges, into: &entries, snapshots: &snapshots)
        return snapshots
    }

    /// The loop of ``adopt(_:ids:)``, with the table passed in so that it is one access to it.
    private static func adopt(
        _ instances: [Instance?], ids: [QSAnyID], policy: Policy, tracksChanges: Bool, into entries: inout IDTable<Entry>,
        snapshots: inout [RowSnapshot?]
    ) {
        let oldCount = entries.count
        for (id, instance) in zip(ids, instances) {
            guard let instance else {
                snapshots.append(entries.position(of: id).flatMap { position in entries.update(at: position) { $0.snapshot } })
                continue
            }
            let position = entries.position(adding: id) { Entry() }.position
            snapshots.append(entries.update(at: position) { $0.adopt(instance, tracksChanges: tracksChanges) })
        }
        // Only a new entry grows the table, so only a new entry pays for sweeping. The save holds
        // the instances of its new entries, so no sweep step needs to look at those.
        if policy == .weak { entries.sweep(afterAdding: entries.count - oldCount) { $0.isDead } }
    }

    /// The snapshots of `ids`, in order; nil without a look where `isKnownMissing` says there is none.
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        zip(ids, isKnownMissing).map { id, isKnownMissing in
            guard !isKnownMissing, let position = entries.position(of: id) else { return nil }
            return entries.update(at: position) { $0.snapshot }
        }
    }

    /// Sets the snapshots of these uniqueIDs; an ID without an entry is skipped, and an ID listed
    /// twice gets either of its snapshots.
    func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)]) {
        // Taken from the end, so that each snapshot moves into its entry instead of being copied
        // (a retain of each of its arrays, which the main actor has just written).
        while let (id, snapshot) = updates.popLast() {
            guard let position = entries.position(of: id) else { continue }
            let kept = snapshot.map(kept)
            entries.update(at: position) { $0.snapshot = kept }
        }
    }

    /// Changes the snapshots' values at `columns` (positions in the layout) for `ids`. Snapshots
    /// without values (see ``tracksChanges``) have none to change.
    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)]) {
        guard !tracksChanges else { return }
        for id in ids {
            guard let position = entries.position(of: id) else { continue }
            entries.update(at: position) { entry in
                for column in columns { entry.snapshot?.values[column.index] = column.value }
            }
        }
    }

    /// The IDs among `ids` that the table has an entry for, in order.
    func knownIDs(among ids: [QSAnyID]) -> [QSAnyID] {
        ids.filter { entries.position(of: $0) != nil }
    }

    /// Every ID the table has an entry for.
    var allIDs: [QSAnyID] { entries.allKeys }

    /// Forgets the rows `ids`: their instances and snapshots.
    func remove(_ ids: some Sequence<QSAnyID>) {
        for id in ids { entries.remove(id) }
    }

    /// Forgets the rows `ids`, and returns the instances that were alive for them.
    func removeReturningInstances(_ ids: [QSAnyID]) -> [(id: QSAnyID, instance: Instance)] {
        var removed: [(id: QSAnyID, instance: Instance)] = []
        for id in ids {
            guard let entry = entries.remove(id) else { continue }
            if let weak = entry.weak {
                removed.append((id, .weak(weak)))
            } else if let strong = entry.strong {
                removed.append((id, .strong(strong)))
            }
        }
        return removed
    }

    /// Keeps `instance` for `id` unless the table has an entry for it (a rolled-back delete puts
    /// back what it removed, but never over an instance a later save in it handed over).
    func putBack(_ instance: Instance, id: QSAnyID) {
        guard entries.position(of: id) == nil else { return }
        insert(instance, id: id)
    }

    /// Drops every entry whose instance is gone, with its snapshot.
    func pruneDeadEntries() {
        entries.keepOnly { !$0.isDead }
    }
}
