/// What the database queue knows of one caching type's rows: for each row read or written while
/// an instance of it is held, that instance (so that a fetch hands out the one the app holds) and
/// the row's snapshot (see ``RowSnapshot``).
///
/// Owned by the database queue: reached only through ``QueueState``, which only work running on
/// the queue is given. The main actor keeps its own table of the instances it holds
/// (``InstanceTable``); the two exchange instances by value as work crosses the queue.
final class KnownRows {
    typealias Policy = InstanceTable.Policy

    let policy: Policy
    /// Whether the instances record which properties they set (see ``QSChangeTrackingObject``):
    /// then a snapshot keeps no values, only that the row is known and its lookup rows.
    let tracksChanges: Bool
    /// The rows, held as `policy` says: exactly one of the two exists.
    private var weakRows: KnownRowTable<WeaklyHeld>?
    private var strongRows: KnownRowTable<StronglyHeld>?

    init(policy: Policy, tracksChanges: Bool) {
        self.policy = policy
        self.tracksChanges = tracksChanges
        if policy == .strong {
            strongRows = KnownRowTable(tracksChanges: tracksChanges)
        } else {
            weakRows = KnownRowTable(tracksChanges: tracksChanges)
        }
    }

    /// The instances for `ids`, in order (nil where none is alive).
    func instances(for ids: [QSAnyID]) -> [Any?] {
        weakRows?.values(for: ids) ?? strongRows?.values(for: ids) ?? []
    }

    /// The weakly held instances for `ids`, in order.
    func weakInstances(for ids: [QSAnyID]) -> [AnyObject?] {
        weakRows?.weakObjects(for: ids) ?? Array(repeating: nil, count: ids.count)
    }

    /// What a fetch asks of every row it reads, in one look: the instance alive for `id`, or, when
    /// there is none, whether the snapshot kept from a dead one still says what the row holds in
    /// `epoch` (then a new instance keeps it: see ``insert(_:id:snapshot:)``).
    /// For a weak table only.
    func weakInstanceOrKeptSnapshot(for id: QSAnyID, epoch: UInt64) -> (instance: AnyObject?, keepsSnapshot: Bool) {
        weakRows?.weakObjectOrKeptSnapshot(for: id, epoch: epoch) ?? (nil, false)
    }

    /// The instance for `id`, if one is alive.
    func instance(for id: QSAnyID) -> Any? {
        weakRows?.value(for: id) ?? strongRows?.value(for: id)
    }

    /// Keeps `instance` for `id`: with `snapshot` when given, otherwise with the snapshot the
    /// entry has (a fetch does that only when ``weakInstanceOrKeptSnapshot(for:epoch:)`` said it
    /// can; a save records the row's new snapshot right after).
    func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot? = nil) {
        weakRows?.insert(instance, id: id, snapshot: snapshot)
        strongRows?.insert(instance, id: id, snapshot: snapshot)
    }

    /// Keeps `instance`, which a read on a reader connection made, for `id`. The row's snapshot
    /// stays only if it is true in `epoch` and knows every relationship (as a fetch would keep
    /// it); otherwise it goes, and the next save of the instance writes the row whole.
    func adoptRead(_ instance: Instance, id: QSAnyID, epoch: UInt64) {
        weakRows?.adoptRead(instance, id: id, epoch: epoch)
        strongRows?.adoptRead(instance, id: id, epoch: epoch)
    }

    /// Keeps the instances a save hands over (the app's, which the main actor now holds for these
    /// rows), and returns the snapshots the rows have, in order: one look per row for both.
    func adopt(_ instances: [Instance?], ids: [QSAnyID]) -> [RowSnapshot?] {
        weakRows?.adopt(instances, ids: ids) ?? strongRows?.adopt(instances, ids: ids) ?? []
    }

    /// The snapshots of `ids`, in order; nil without a look where `isKnownMissing` says there is none.
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        weakRows?.snapshots(for: ids, isKnownMissing: isKnownMissing)
            ?? strongRows?.snapshots(for: ids, isKnownMissing: isKnownMissing) ?? []
    }

    /// Sets the snapshots of these uniqueIDs; an ID without an entry is skipped, and an ID listed
    /// twice gets either of its snapshots.
    func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)]) {
        if weakRows != nil {
            weakRows?.setSnapshots(updates)
        } else {
            strongRows?.setSnapshots(updates)
        }
    }

    /// Changes the snapshots' values at `columns` (positions in the layout) for `ids`. Snapshots
    /// without values (see ``tracksChanges``) have none to change.
    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)]) {
        guard !tracksChanges else { return }
        weakRows?.patchSnapshots(ids, columns: columns)
        strongRows?.patchSnapshots(ids, columns: columns)
    }

    /// The IDs among `ids` that the table has an entry for, in order.
    func knownIDs(among ids: [QSAnyID]) -> [QSAnyID] {
        weakRows?.knownIDs(among: ids) ?? strongRows?.knownIDs(among: ids) ?? []
    }

    /// Every ID the table has an entry for.
    var allIDs: [QSAnyID] { weakRows?.entries.allKeys ?? strongRows?.entries.allKeys ?? [] }

    /// Forgets the rows `ids`: their instances and snapshots.
    func remove(_ ids: some Sequence<QSAnyID>) {
        for id in ids {
            _ = weakRows?.entries.remove(id)
            _ = strongRows?.entries.remove(id)
        }
    }

    /// Forgets the rows `ids`, and returns the instances that were alive for them.
    func removeReturningInstances(_ ids: [QSAnyID]) -> [(id: QSAnyID, instance: Instance)] {
        weakRows?.removeReturningInstances(ids) ?? strongRows?.removeReturningInstances(ids) ?? []
    }

    /// Keeps `instance` for `id` unless the table has an entry for it (a rolled-back delete puts
    /// back what it removed, but never over an instance a later save in it handed over).
    func putBack(_ instance: Instance, id: QSAnyID) {
        guard weakRows?.entries.position(of: id) == nil, strongRows?.entries.position(of: id) == nil else { return }
        insert(instance, id: id)
    }

    /// Drops every entry whose instance is gone, with its snapshot.
    func pruneDeadEntries() {
        weakRows?.entries.keepOnly { !$0.held.isDead }
        strongRows?.entries.keepOnly { !$0.held.isDead }
    }
}

/// One row's instance, held as `Held` says, with the row's snapshot.
///
/// Read and changed only where it lies in the table (through ``IDTable/update(at:_:)``): a
/// copy of the entry would copy the weak reference (atomic operations on the instance's side
/// table) and retain each of the snapshot's arrays.
private struct KnownRow<Held: HeldInstance> {
    var held = Held()
    var snapshot: RowSnapshot?

    /// Whether a fetch in `epoch` can keep the snapshot for a new instance of the row.
    func keepsSnapshot(in epoch: UInt64) -> Bool { snapshot?.isKept(in: epoch) ?? false }

    /// Holds `instance` from now on, and returns the row's snapshot. When instances record
    /// what they set, a snapshot is true only beside the instance read or written with it:
    /// another instance (one the app made, or one after the last died) loses it, and its
    /// row is written whole.
    mutating func adopt(_ instance: Instance, tracksChanges: Bool) -> RowSnapshot? {
        if tracksChanges, !held.holds(instance) { snapshot = nil }
        held.hold(instance)
        return snapshot
    }
}

/// The rows of a ``KnownRows``, held as `Held` says. Each method changes the table in one access
/// to it.
private struct KnownRowTable<Held: HeldInstance> {
    let tracksChanges: Bool
    /// Swept a step per new entry when instances can die, so that dead entries go without ever
    /// stopping to scan the whole table (see ``IDTable/sweep(afterAdding:isDead:)``). A dead
    /// entry goes with its snapshot: a row no one holds is read afresh when fetched again.
    var entries = IDTable<KnownRow<Held>>()

    init(tracksChanges: Bool) {
        self.tracksChanges = tracksChanges
    }

    mutating func values(for ids: [QSAnyID]) -> [Any?] {
        ids.map { id in value(for: id) }
    }

    mutating func value(for id: QSAnyID) -> Any? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.held.value }
    }

    mutating func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot?) {
        let kept = snapshot.map(kept)
        let (position, isNew) = entries.position(adding: id) { KnownRow() }
        entries.update(at: position) { entry in
            entry.held.hold(instance)
            if let kept { entry.snapshot = kept }
        }
        if isNew { sweep(afterAdding: 1) }
    }

    mutating func adoptRead(_ instance: Instance, id: QSAnyID, epoch: UInt64) {
        insert(instance, id: id, snapshot: nil)
        guard let position = entries.position(of: id) else { return }
        entries.update(at: position) { entry in
            if !entry.keepsSnapshot(in: epoch) { entry.snapshot = nil }
        }
    }

    mutating func adopt(_ instances: [Instance?], ids: [QSAnyID]) -> [RowSnapshot?] {
        var snapshots: [RowSnapshot?] = []
        snapshots.reserveCapacity(ids.count)
        let oldCount = entries.count
        for (id, instance) in zip(ids, instances) {
            guard let instance else {
                snapshots.append(entries.position(of: id).flatMap { position in entries.update(at: position) { $0.snapshot } })
                continue
            }
            let position = entries.position(adding: id) { KnownRow() }.position
            snapshots.append(entries.update(at: position) { $0.adopt(instance, tracksChanges: tracksChanges) })
        }
        // The save holds the instances of its new entries, so no sweep step needs to look at those.
        sweep(afterAdding: entries.count - oldCount)
        return snapshots
    }

    mutating func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        zip(ids, isKnownMissing).map { id, isKnownMissing in
            guard !isKnownMissing, let position = entries.position(of: id) else { return nil }
            return entries.update(at: position) { $0.snapshot }
        }
    }

    mutating func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)]) {
        // Taken from the end, so that each snapshot moves into its entry instead of being copied
        // (a retain of each of its arrays, which the main actor has just written).
        while let (id, snapshot) = updates.popLast() {
            guard let position = entries.position(of: id) else { continue }
            let kept = snapshot.map(kept)
            entries.update(at: position) { $0.snapshot = kept }
        }
    }

    mutating func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)]) {
        for id in ids {
            guard let position = entries.position(of: id) else { continue }
            entries.update(at: position) { entry in
                for column in columns { entry.snapshot?.values[column.index] = column.value }
            }
        }
    }

    func knownIDs(among ids: [QSAnyID]) -> [QSAnyID] {
        ids.filter { entries.position(of: $0) != nil }
    }

    mutating func removeReturningInstances(_ ids: [QSAnyID]) -> [(id: QSAnyID, instance: Instance)] {
        var removed: [(id: QSAnyID, instance: Instance)] = []
        for id in ids {
            if let instance = entries.remove(id)?.held.instance { removed.append((id, instance)) }
        }
        return removed
    }

    /// `snapshot` as this table keeps it: without values when the instances record what they set.
    private func kept(_ snapshot: RowSnapshot) -> RowSnapshot {
        tracksChanges ? snapshot.withoutValues : snapshot
    }

    /// Only a new entry grows the table, so only a new entry pays for sweeping. A strong table's
    /// instances never die, so it is never swept.
    private mutating func sweep(afterAdding added: Int) {
        guard Held.self == WeaklyHeld.self else { return }
        entries.sweep(afterAdding: added) { $0.held.isDead }
    }
}

extension KnownRowTable where Held == WeaklyHeld {
    mutating func weakObjects(for ids: [QSAnyID]) -> [AnyObject?] {
        ids.map { id in
            guard let position = entries.position(of: id) else { return nil }
            return entries.update(at: position) { $0.held.object }
        }
    }

    mutating func weakObjectOrKeptSnapshot(for id: QSAnyID, epoch: UInt64) -> (instance: AnyObject?, keepsSnapshot: Bool) {
        guard let position = entries.position(of: id) else { return (nil, false) }
        return entries.update(at: position) { entry in
            if let instance = entry.held.object { return (instance, false) }
            return (nil, entry.keepsSnapshot(in: epoch))
        }
    }
}
