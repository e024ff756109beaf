import Foundation

/// The instances of one type the store keeps: weakly for uniqued classes, strongly when the
/// model says `cachePermanently`. Shared by the main actor and the database queue, so it locks.
///
/// A typed front for an ``InstanceTable``: the table is not generic, so that its dictionaries are
/// compiled for their concrete types. (A binding is made from a metatype the app registers, so
/// generic code in it runs unspecialised and would look up the metadata of every dictionary and
/// optional it touches at run time, once per call: that was most of a fetch's cost.)
final class ObjectCache<Object: QSDataObject>: @unchecked Sendable {
    typealias Policy = InstanceTable.Policy

    let policy: Policy
    private let table: InstanceTable

    init(policy: Policy) {
        self.policy = policy
        table = InstanceTable(policy: policy)
    }

    /// Counts the instances the app put in (by saving them), so a fetch can tell cheaply
    /// whether the app may have saved an instance while the fetch was running.
    var appInsertions: Int { table.appInsertions }

    /// The cached instance for `id`, if one is alive.
    func object(for id: Object.UniqueID) -> Object? {
        guard policy != .none else { return nil }
        return table.object(for: id.anyID).map(Self.typed)
    }

    /// Keeps `object` under its uniqueID, replacing any other instance. A `snapshot` replaces the
    /// one kept for the uniqueID; without one, the kept snapshot stays (it describes the row, not
    /// the instance).
    func insert(_ object: Object, snapshot: RowSnapshot? = nil) {
        guard policy != .none else { return }
        table.insert(object, id: object.uniqueID.anyID, snapshot: snapshot, fromApp: false)
    }

    /// Keeps an instance the app saved, replacing any other instance.
    func insertFromApp(_ object: Object) {
        guard policy != .none else { return }
        table.insert(object, id: object.uniqueID.anyID, snapshot: nil, fromApp: true)
    }

    /// The snapshot of the row for `id`, when an instance is kept and its row is known.
    func snapshot(for id: QSAnyID) -> RowSnapshot? {
        guard policy != .none else { return nil }
        return table.snapshot(for: id)
    }

    /// Records what the database now holds for `id`, when an instance is kept for it; nil forgets it.
    func setSnapshot(_ snapshot: RowSnapshot?, for id: QSAnyID) {
        guard policy != .none else { return }
        table.setSnapshot(snapshot, for: id)
    }

    /// Changes the snapshots' values at `columns` (positions in the layout) for `ids`.
    func patchSnapshots(_ ids: some Sequence<QSAnyID>, columns: [(index: Int, value: SQLValue)]) {
        guard policy != .none else { return }
        table.patchSnapshots(Array(ids), columns: columns)
    }

    /// Makes room for `count` more instances, so a large save does not stop to grow the table.
    func reserveCapacity(adding count: Int) {
        guard policy != .none else { return }
        table.reserveCapacity(adding: count)
    }

    /// Records that the instance for `id` holds the column values of the app's latest save.
    func markValuesSaved(_ id: Object.UniqueID) {
        guard policy != .none else { return }
        table.markValuesSaved(id.anyID)
    }

    /// Whether the instance for `id` holds the column values (or, with `relationships`, the
    /// relationships) of a save later than `stamp`.
    func savedByApp(_ id: Object.UniqueID, after stamp: UInt64, relationships: Bool) -> Bool {
        guard policy != .none else { return false }
        return table.savedByApp(id.anyID, after: stamp, relationships: relationships)
    }

    /// Forgets the instances for `ids`; returns those that were alive.
    @discardableResult
    func remove<IDs: Sequence>(_ ids: IDs) -> [Object] where IDs.Element == Object.UniqueID {
        guard policy != .none else { return [] }
        return table.remove(ids.map(\.anyID)).map(Self.typed)
    }

    /// Every instance still alive.
    var allObjects: [Object] {
        table.allObjects.map(Self.typed)
    }

    /// The number of instances still alive; dead weak entries are dropped first.
    var count: Int { table.count }

    /// The table holds only instances of `Object`, put in by this front.
    private static func typed(_ instance: Any) -> Object {
        instance as! Object
    }
}

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

    func insert(_ instance: Any, id: QSAnyID, snapshot: RowSnapshot?, fromApp: Bool) {
        let entry = policy == .strong ? Entry(strong: instance, weak: nil) : Entry(strong: nil, weak: instance as AnyObject)
        lock.lock()
        defer { lock.unlock() }
        if !replaceEntry(entry, for: id), policy == .weak {
            sweepKeys.append(id)
        }
        if let snapshot { snapshots[id] = snapshot }
        if fromApp {
            appInsertions += 1
            entries[id]?.valuesStamp = WriteStamp.current
            entries[id]?.relationshipsStamp = WriteStamp.current
        }
        if policy == .weak { sweepSomeDeadEntries() }
    }

    func snapshot(for id: QSAnyID) -> RowSnapshot? {
        lock.lock()
        defer { lock.unlock() }
        return snapshots[id]
    }

    func setSnapshot(_ snapshot: RowSnapshot?, for id: QSAnyID) {
        lock.lock()
        defer { lock.unlock() }
        guard entries.index(forKey: id) != nil else { return }
        snapshots[id] = snapshot
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
