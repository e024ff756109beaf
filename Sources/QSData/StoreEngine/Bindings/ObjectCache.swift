import Foundation

/// The instances of one type the store keeps: weakly for uniqued classes, strongly when the
/// model says `cachePermanently`. Shared by the main actor and the database queue, so it locks.
final class ObjectCache<Object: QSDataObject>: @unchecked Sendable {
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
        var strong: Object?
        weak var weak: AnyObject?
        /// The ``WriteStamp`` of the last save that gave the instance its column values, and of
        /// the last that gave it its relationships (saving another type on the table sets
        /// only the first).
        var valuesStamp: UInt64 = 0
        var relationshipsStamp: UInt64 = 0

        var object: Object? { strong ?? weak as? Object }
        var isDead: Bool { strong == nil && weak == nil }
    }

    let policy: Policy
    /// Counts the instances the app put in (by saving them), so a fetch can tell cheaply
    /// whether the app may have saved an instance while the fetch was running.
    private(set) var appInsertions = 0
    private let lock = NSLock()
    private var entries: [Object.UniqueID: Entry] = [:]
    /// What the database holds for a uniqueID, kept while its entry is (see ``RowSnapshot``).
    /// Apart from the entries, so that reading one never copies an entry's weak reference.
    private var snapshots: [Object.UniqueID: RowSnapshot] = [:]
    /// Every key of a weak entry in the order it arrived, swept a couple per insert so that dead
    /// entries go without ever stopping to scan the whole cache (see ``sweepSomeDeadEntries()``).
    private var sweepKeys: [Object.UniqueID] = []
    private var sweepRead = 0
    private var sweepWrite = 0

    init(policy: Policy) {
        self.policy = policy
    }

    /// The cached instance for `id`, if one is alive.
    func object(for id: Object.UniqueID) -> Object? {
        guard policy != .none else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return Self.object(in: entries[id])
    }

    /// Keeps `object` under its uniqueID, replacing any other instance. A `snapshot` replaces the
    /// one kept for the uniqueID; without one, the kept snapshot stays (it describes the row, not
    /// the instance).
    func insert(_ object: Object, snapshot: RowSnapshot? = nil) {
        switch policy {
        case .none:
            return
        case .strong:
            lock.lock()
            replaceEntry(Entry(strong: object, weak: nil), for: object.uniqueID)
            if let snapshot { snapshots[object.uniqueID] = snapshot }
            lock.unlock()
        case .weak:
            lock.lock()
            if !replaceEntry(Entry(strong: nil, weak: object as AnyObject), for: object.uniqueID) {
                sweepKeys.append(object.uniqueID)
            }
            if let snapshot { snapshots[object.uniqueID] = snapshot }
            sweepSomeDeadEntries()
            lock.unlock()
        }
    }

    /// The snapshot of the row for `id`, when an instance is kept and its row is known.
    func snapshot(for id: QSAnyID) -> RowSnapshot? {
        guard policy != .none, let typedID = Object.UniqueID(anyID: id) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return snapshots[typedID]
    }

    /// Records what the database now holds for `id`, when an instance is kept for it; nil forgets it.
    func setSnapshot(_ snapshot: RowSnapshot?, for id: QSAnyID) {
        guard policy != .none, let typedID = Object.UniqueID(anyID: id) else { return }
        lock.lock()
        defer { lock.unlock() }
        guard entries.index(forKey: typedID) != nil else { return }
        snapshots[typedID] = snapshot
    }

    /// Changes the snapshots' values at `columns` (positions in the layout) for `ids`.
    func patchSnapshots(_ ids: some Sequence<QSAnyID>, columns: [(index: Int, value: SQLValue)]) {
        guard policy != .none else { return }
        lock.lock()
        defer { lock.unlock() }
        for id in ids {
            guard let typedID = Object.UniqueID(anyID: id), snapshots[typedID] != nil else { continue }
            for column in columns { snapshots[typedID]?.values[column.index] = column.value }
        }
    }

    /// Stores `entry`, keeping the stamps of the entry it replaces. Returns whether there was one.
    /// Call with the lock held.
    @discardableResult
    private func replaceEntry(_ entry: Entry, for id: Object.UniqueID) -> Bool {
        guard let previous = entries.updateValue(entry, forKey: id) else { return false }
        if previous.valuesStamp != 0 || previous.relationshipsStamp != 0 {
            entries[id]?.valuesStamp = previous.valuesStamp
            entries[id]?.relationshipsStamp = previous.relationshipsStamp
        }
        return true
    }

    /// Makes room for `count` more instances, so a large save does not stop to grow the table.
    func reserveCapacity(adding count: Int) {
        guard policy != .none else { return }
        lock.lock()
        entries.reserveCapacity(entries.count + count)
        snapshots.reserveCapacity(snapshots.count + count)
        if policy == .weak { sweepKeys.reserveCapacity(sweepKeys.count + count) }
        lock.unlock()
    }

    /// Keeps an instance the app saved, replacing any other instance.
    func insertFromApp(_ object: Object) {
        guard policy != .none else { return }
        insert(object)
        lock.lock()
        appInsertions += 1
        entries[object.uniqueID]?.valuesStamp = WriteStamp.current
        entries[object.uniqueID]?.relationshipsStamp = WriteStamp.current
        lock.unlock()
    }

    /// Records that the instance for `id` holds the column values of the app's latest save.
    func markValuesSaved(_ id: Object.UniqueID) {
        guard policy != .none else { return }
        lock.lock()
        entries[id]?.valuesStamp = WriteStamp.current
        lock.unlock()
    }

    /// Whether the instance for `id` holds the column values (or, with `relationships`, the
    /// relationships) of a save later than `stamp`.
    func savedByApp(_ id: Object.UniqueID, after stamp: UInt64, relationships: Bool) -> Bool {
        guard policy != .none else { return false }
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[id] else { return false }
        return (relationships ? entry.relationshipsStamp : entry.valuesStamp) > stamp
    }

    /// Forgets the instances for `ids`; returns those that were alive.
    @discardableResult
    func remove<IDs: Sequence>(_ ids: IDs) -> [Object] where IDs.Element == Object.UniqueID {
        guard policy != .none else { return [] }
        var removed: [Object] = []
        lock.lock()
        for id in ids {
            snapshots[id] = nil
            if let object = entries.removeValue(forKey: id)?.object { removed.append(object) }
        }
        lock.unlock()
        return removed
    }

    /// Every instance still alive.
    var allObjects: [Object] {
        lock.lock()
        defer { lock.unlock() }
        return entries.values.compactMap { Self.object(in: $0) }
    }

    /// The number of instances still alive; dead weak entries are dropped first.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        pruneDeadEntries()
        return entries.count
    }

    private static func object(in entry: Entry?) -> Object? {
        entry?.object
    }

    /// Looks at the next two keys in arrival order and drops their entries if the instance is
    /// gone, compacting the key list in place as it goes. Two per insert is enough: the cache
    /// can never hold more than twice the live instances plus the inserts since the last pass.
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
            guard let entry = entries[key] else { continue }
            if entry.isDead {
                entries[key] = nil
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
