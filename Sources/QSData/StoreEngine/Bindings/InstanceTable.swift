import Foundation

/// The instances of one type by uniqueID, with the snapshots of their rows (see ``ObjectCache``).
final class InstanceTable: @unchecked Sendable {
    enum Policy {
        /// Nothing is kept: every fetch makes fresh values.
        case none
        /// Live instances are found again while someone holds them (uniquing).
        case weak
        /// Instances stay for the life of the store.
        case strong
    }

    /// One cached instance: held strongly, or weakly (stored inline, so keeping a uniqued
    /// instance costs no allocation of its own).
    private struct Entry {
        var strong: Any?
        weak var weak: AnyObject?
        /// The ``WriteStamp`` of the last save that gave the instance its column values, and of
        /// the last that gave it its relationships (saving another type on the table sets
        /// only the first).
        var valuesStamp: UInt64 = 0
        var relationshipsStamp: UInt64 = 0

        var instance: Any? { strong ?? weak }
        var isDead: Bool { strong == nil && weak == nil }

        // The two below read an entry where it lies in the dictionary. They are `mutating` only
        // because a dictionary lends its values in place for mutation, where a plain read
        // copies the entry, and copying a weak reference costs atomic operations on the
        // instance's side table (most of a cache lookup's time).
        mutating func weakInPlace() -> AnyObject? { weak }
        mutating func isDeadInPlace() -> Bool { isDead }
    }

    let policy: Policy
    private(set) var appInsertions = 0
    private let lock = NSLock()
    private var entries: [QSAnyID: Entry] = [:]
    /// What the database holds for a uniqueID, kept while its entry is (see ``RowSnapshot``).
    /// Apart from the entries, so that reading one never copies an entry's weak reference.
    private var snapshots: [QSAnyID: RowSnapshot] = [:]
    /// Every key of a weak entry in the order it arrived, swept a couple per insert so that dead
    /// entries go without ever stopping to scan the whole cache (see ``sweepSomeDeadEntries()``).
    private var sweepKeys: [QSAnyID] = []
    private var sweepRead = 0
    private var sweepWrite = 0

    init(policy: Policy) {
        self.policy = policy
    }

    func object(for id: QSAnyID) -> Any? {
        lock.lock()
        defer { lock.unlock() }
        return entries[id]?.instance
    }

    func weakObject(for id: QSAnyID) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        guard let index = entries.index(forKey: id) else { return nil }
        return entries.values[index].weakInPlace()
    }

    /// The live instance for `id`, or, when there is none, whether the snapshot kept from a dead
    /// one can serve a new instance in `epoch` (see ``replaceKeepingSnapshot(weak:id:)``). One
    /// look, under one lock, for what a fetch asks of every row it reads.
    func weakObjectOrKeptSnapshot(for id: QSAnyID, epoch: UInt64) -> (object: AnyObject?, keepsSnapshot: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard let index = entries.index(forKey: id) else { return (nil, false) }
        if let object = entries.values[index].weakInPlace() { return (object, false) }
        guard let snapshotIndex = snapshots.index(forKey: id) else { return (nil, false) }
        return (nil, snapshots.values[snapshotIndex].isKeptInPlace(in: epoch))
    }

    func insert(weak instance: AnyObject, id: QSAnyID, snapshot: RowSnapshot?, fromApp: Bool) {
        insert(Entry(strong: nil, weak: instance), id: id, snapshot: snapshot, fromApp: fromApp)
    }

    func insert(strong instance: Any, id: QSAnyID, snapshot: RowSnapshot?, fromApp: Bool) {
        insert(Entry(strong: instance, weak: nil), id: id, snapshot: snapshot, fromApp: fromApp)
    }

    /// Keeps instances the app saved, under one lock.
    func insertFromApp(weak instances: [(id: QSAnyID, instance: AnyObject)]) {
        insertFromApp(instances.lazy.map { (id: $0.id, entry: Entry(strong: nil, weak: $0.instance)) })
    }

    /// Keeps instances the app saved, under one lock.
    func insertFromApp(strong instances: [(id: QSAnyID, instance: Any)]) {
        insertFromApp(instances.lazy.map { (id: $0.id, entry: Entry(strong: $0.instance, weak: nil)) })
    }

    private func insertFromApp(_ entries: some Sequence<(id: QSAnyID, entry: Entry)>) {
        lock.lock()
        defer { lock.unlock() }
        for (id, entry) in entries {
            insertLocked(entry, id: id, snapshot: nil, fromApp: true)
        }
    }

    private func insert(_ entry: Entry, id: QSAnyID, snapshot: RowSnapshot?, fromApp: Bool) {
        lock.lock()
        defer { lock.unlock() }
        insertLocked(entry, id: id, snapshot: snapshot, fromApp: fromApp)
    }

    /// Call with the lock held.
    private func insertLocked(_ entry: Entry, id: QSAnyID, snapshot: RowSnapshot?, fromApp: Bool) {
        let addsKey = !replaceEntry(entry, for: id)
        if addsKey, policy == .weak {
            sweepKeys.append(id)
        }
        if let snapshot { snapshots[id] = snapshot }
        if fromApp {
            appInsertions += 1
            entries[id]?.valuesStamp = WriteStamp.current
            entries[id]?.relationshipsStamp = WriteStamp.current
        }
        // Only a new key grows the table, so only a new key pays for sweeping: fetching the
        // same rows again reuses their dead entries and sweeps nothing.
        if addsKey, policy == .weak { sweepSomeDeadEntries() }
    }

    /// Keeps `instance`, a new instance of the row `id`, in place of a dead one, leaving the dead
    /// one's snapshot as the new one's.
    func replaceKeepingSnapshot(weak instance: AnyObject, id: QSAnyID) {
        lock.lock()
        defer { lock.unlock() }
        replaceEntry(Entry(strong: nil, weak: instance), for: id)
    }

    /// The snapshots of `ids`, in order, under one lock.
    func snapshots(for ids: [QSAnyID]) -> [RowSnapshot?] {
        lock.lock()
        defer { lock.unlock() }
        return ids.map { snapshots[$0] }
    }

    /// Sets the snapshots of these uniqueIDs, under one lock; an ID without an entry is skipped.
    func setSnapshots(_ updates: [(id: QSAnyID, snapshot: RowSnapshot?)]) {
        lock.lock()
        defer { lock.unlock() }
        for (id, snapshot) in updates where entries.index(forKey: id) != nil {
            snapshots[id] = snapshot
        }
    }

    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)]) {
        lock.lock()
        defer { lock.unlock() }
        for id in ids {
            guard let index = snapshots.index(forKey: id) else { continue }
            for column in columns { snapshots.values[index].values[column.index] = column.value }
        }
    }

    /// Stores `entry`, keeping the stamps of the entry it replaces. Returns whether there was one.
    /// Call with the lock held.
    @discardableResult
    private func replaceEntry(_ entry: Entry, for id: QSAnyID) -> Bool {
        guard let previous = entries.updateValue(entry, forKey: id) else { return false }
        if previous.valuesStamp != 0 || previous.relationshipsStamp != 0 {
            entries[id]?.valuesStamp = previous.valuesStamp
            entries[id]?.relationshipsStamp = previous.relationshipsStamp
        }
        return true
    }

    func reserveCapacity(adding count: Int) {
        lock.lock()
        entries.reserveCapacity(entries.count + count)
        snapshots.reserveCapacity(snapshots.count + count)
        if policy == .weak { sweepKeys.reserveCapacity(sweepKeys.count + count) }
        lock.unlock()
    }

    func markValuesSaved(_ id: QSAnyID) {
        lock.lock()
        entries[id]?.valuesStamp = WriteStamp.current
        lock.unlock()
    }

    func savedByApp(_ id: QSAnyID, after stamp: UInt64, relationships: Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[id] else { return false }
        return (relationships ? entry.relationshipsStamp : entry.valuesStamp) > stamp
    }

    func remove(_ ids: [QSAnyID]) -> [Any] {
        var removed: [Any] = []
        lock.lock()
        for id in ids {
            snapshots[id] = nil
            if let instance = entries.removeValue(forKey: id)?.instance { removed.append(instance) }
        }
        lock.unlock()
        return removed
    }

    var allObjects: [Any] {
        lock.lock()
        defer { lock.unlock() }
        return entries.values.compactMap(\.instance)
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        pruneDeadEntries()
        return entries.count
    }

    /// Looks at the next two keys in arrival order and drops their entries if the instance is
    /// gone, compacting the key list in place as it goes. Two per new key is enough: the cache
    /// can never hold more than twice the live instances plus the keys added since the last pass.
    private func sweepSomeDeadEntries() {
        for _ in 0..<2 {
            if sweepRead == sweepKeys.count {
                sweepKeys.removeLast(sweepKeys.count - sweepWrite)
                sweepRead = 0
                sweepWrite = 0
                return
            }
            let key = sweepKeys[sweepRead]
            sweepRead += 1
            guard let index = entries.index(forKey: key) else { continue }
            if entries.values[index].isDeadInPlace() {
                entries.remove(at: index)
                snapshots[key] = nil
                continue
            }
            sweepKeys[sweepWrite] = key
            sweepWrite += 1
        }
    }

    /// Drops every entry whose instance is gone.
    private func pruneDeadEntries() {
        entries = entries.filter { !$0.value.isDead }
        snapshots = snapshots.filter { entries[$0.key] != nil }
        sweepKeys = Array(entries.keys)
        sweepRead = 0
        sweepWrite = 0
    }
}
