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
    /// Read and changed only where it lies in the dictionary (`entries.values[index]` and the
    /// `InPlace` methods, `mutating` for that reason alone): a plain read copies the entry, and
    /// copying the weak reference costs atomic operations on the instance's side table, and the
    /// snapshot a retain of each of its arrays.
    private struct Entry {
        weak var weak: AnyObject?
        var strong: StrongInstance?
        var snapshot: RowSnapshot?

        var instance: Any? { strong?.value ?? weak }
        var isDead: Bool { strong == nil && weak == nil }

        mutating func instanceInPlace() -> Any? { instance }
        mutating func weakInPlace() -> AnyObject? { weak }
        mutating func isDeadInPlace() -> Bool { isDead }
        mutating func snapshotInPlace() -> RowSnapshot? { snapshot }
        mutating func keepsSnapshotInPlace(in epoch: UInt64) -> Bool { snapshot?.isKeptInPlace(in: epoch) ?? false }

        /// Holds `instance` from now on, and returns the row's snapshot.
        mutating func adopt(_ instance: Instance) -> RowSnapshot? {
            hold(instance)
            return snapshot
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
    private var entries: [QSAnyID: Entry] = [:]
    /// Every key of a weak table in the order it arrived, swept a couple per new key so that dead
    /// entries go without ever stopping to scan the whole table (see ``SweepOrder``).
    private var sweep = SweepOrder()

    init(policy: Policy) {
        self.policy = policy
    }

    /// The instances for `ids`, in order (nil where none is alive).
    func instances(for ids: [QSAnyID]) -> [Any?] {
        ids.map { id in
            guard let index = entries.index(forKey: id) else { return nil }
            return entries.values[index].instanceInPlace()
        }
    }

    /// The weakly held instances for `ids`, in order.
    func weakInstances(for ids: [QSAnyID]) -> [AnyObject?] {
        ids.map { id in
            guard let index = entries.index(forKey: id) else { return nil }
            return entries.values[index].weakInPlace()
        }
    }

    /// What a fetch asks of every row it reads, in one look: the instance alive for `id`, or, when
    /// there is none, whether the snapshot kept from a dead one still says what the row holds in
    /// `epoch` (then a new instance keeps it: see ``insert(_:id:snapshot:)``).
    /// For a weak table only.
    func weakInstanceOrKeptSnapshot(for id: QSAnyID, epoch: UInt64) -> (instance: AnyObject?, keepsSnapshot: Bool) {
        guard let index = entries.index(forKey: id) else { return (nil, false) }
        if let instance = entries.values[index].weakInPlace() { return (instance, false) }
        return (nil, entries.values[index].keepsSnapshotInPlace(in: epoch))
    }

    /// The instance for `id`, if one is alive.
    func instance(for id: QSAnyID) -> Any? {
        guard let index = entries.index(forKey: id) else { return nil }
        return entries.values[index].instanceInPlace()
    }

    /// Keeps `instance` for `id`: with `snapshot` when given, otherwise with the snapshot the
    /// entry has (a fetch does that only when ``instanceOrKeptSnapshot(for:epoch:)`` said it can;
    /// a save records the row's new snapshot right after).
    func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot? = nil) {
        if Self.insert(instance, id: id, snapshot: snapshot, into: &entries), policy == .weak {
            sweep.keys.append(id)
            sweepOneDeadEntry()
        }
    }

    /// One look for the entry, whether it is there or made here; returns whether it was made.
    /// Static, with the table passed in, so that the whole change is one access to it.
    private static func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot?, into entries: inout [QSAnyID: Entry]) -> Bool {
        let count = entries.count
        entries[id, default: Entry()].hold(instance, snapshot: snapshot)
        return entries.count != count
    }

    /// Keeps `instance`, which a read on a reader connection made, for `id`. The row's snapshot
    /// stays only if it is true in `epoch` and knows every relationship (as a fetch would keep
    /// it); otherwise it goes, and the next save of the instance writes the row whole.
    func adoptRead(_ instance: Instance, id: QSAnyID, epoch: UInt64) {
        insert(instance, id: id)
        guard let index = entries.index(forKey: id) else { return }
        if !entries.values[index].keepsSnapshotInPlace(in: epoch) { entries.values[index].snapshot = nil }
    }

    /// Keeps the instances a save hands over (the app's, which the main actor now holds for these
    /// rows), and returns the snapshots the rows have, in order: one look per row for both.
    func adopt(_ instances: [Instance?], ids: [QSAnyID]) -> [RowSnapshot?] {
        var snapshots: [RowSnapshot?] = []
        snapshots.reserveCapacity(ids.count)
        let newKeys = Self.adopt(instances, ids: ids, into: &entries, snapshots: &snapshots)
        // Only a new key grows the table, so only a new key pays for sweeping. The group holds
        // the instances of its new keys, so no sweep step needs to look at those.
        if !newKeys.isEmpty, policy == .weak {
            sweep.appendAlive(newKeys, sweeping: &entries) { $0.isDeadInPlace() }
        }
        return snapshots
    }

    /// The loop of ``adopt(_:ids:)``, with the table passed in so that it is one access to it.
    /// Returns the keys it added.
    private static func adopt(
        _ instances: [Instance?], ids: [QSAnyID], into entries: inout [QSAnyID: Entry], snapshots: inout [RowSnapshot?]
    ) -> [QSAnyID] {
        var newKeys: [QSAnyID] = []
        for (id, instance) in zip(ids, instances) {
            guard let instance else {
                snapshots.append(entries.index(forKey: id).flatMap { entries.values[$0].snapshotInPlace() })
                continue
            }
            let count = entries.count
            snapshots.append(entries[id, default: Entry()].adopt(instance))
            if entries.count != count { newKeys.append(id) }
        }
        return newKeys
    }

    /// The snapshots of `ids`, in order; nil without a look where `isKnownMissing` says there is none.
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        zip(ids, isKnownMissing).map { id, isKnownMissing in
            guard !isKnownMissing, let index = entries.index(forKey: id) else { return nil }
            return entries.values[index].snapshotInPlace()
        }
    }

    /// Sets the snapshots of these uniqueIDs; an ID without an entry is skipped, and an ID listed
    /// twice gets either of its snapshots.
    func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)]) {
        // Taken from the end, so that each snapshot moves into its entry instead of being copied
        // (a retain of each of its arrays, which the main actor has just written).
        while let (id, snapshot) = updates.popLast() {
            guard let index = entries.index(forKey: id) else { continue }
            entries.values[index].snapshot = snapshot
        }
    }

    /// Changes the snapshots' values at `columns` (positions in the layout) for `ids`.
    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)]) {
        for id in ids {
            guard let index = entries.index(forKey: id) else { continue }
            for column in columns { entries.values[index].snapshot?.values[column.index] = column.value }
        }
    }

    /// The IDs among `ids` that the table has an entry for, in order.
    func knownIDs(among ids: [QSAnyID]) -> [QSAnyID] {
        ids.filter { entries.index(forKey: $0) != nil }
    }

    /// Every ID the table has an entry for.
    var allIDs: [QSAnyID] { Array(entries.keys) }

    /// Forgets the rows `ids`: their instances and snapshots.
    func remove(_ ids: some Sequence<QSAnyID>) {
        for id in ids { entries.removeValue(forKey: id) }
    }

    /// Forgets the rows `ids`, and returns the instances that were alive for them.
    func removeReturningInstances(_ ids: [QSAnyID]) -> [(id: QSAnyID, instance: Instance)] {
        var removed: [(id: QSAnyID, instance: Instance)] = []
        for id in ids {
            guard let entry = entries.removeValue(forKey: id) else { continue }
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
        guard entries.index(forKey: id) == nil else { return }
        insert(instance, id: id)
    }

    /// Drops every entry whose instance is gone, with its snapshot.
    func pruneDeadEntries() {
        entries = entries.filter { !$0.value.isDead }
        sweep = SweepOrder(keys: Array(entries.keys))
    }

    /// Looks at the next key in arrival order and drops its entry if the instance is gone (and
    /// with it the snapshot: a row no one holds is read afresh when fetched again). One per new
    /// key: a walk over the keys ends after as many new keys as it found, so an entry whose
    /// instance died is gone within two walks (the main actor's table does the same).
    private func sweepOneDeadEntry() {
        sweep.sweepOne(from: &entries) { $0.isDeadInPlace() }
    }
}
