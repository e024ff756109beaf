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

    /// One cached instance, held strongly or weakly (stored inline, so keeping a uniqued instance
    /// costs no allocation of its own), with the snapshot of its row.
    ///
    /// Read and changed only where it lies in the dictionary (`entries.values[index]`, and the
    /// `InPlace` methods below, `mutating` for that reason alone): a dictionary lends its values
    /// in place for mutation, where a plain read copies the entry, and copying the weak
    /// reference costs atomic operations on the instance's side table, and the snapshot a
    /// retain of each of its arrays.
    private struct Entry {
        var strong: Any?
        weak var weak: AnyObject?
        /// The ``WriteStamp`` of the last save that gave the instance its column values, and of
        /// the last that gave it its relationships (saving another type on the table sets
        /// only the first).
        var valuesStamp: UInt64 = 0
        var relationshipsStamp: UInt64 = 0
        /// What the database holds for the row (see ``RowSnapshot``), kept while the entry is.
        var snapshot: RowSnapshot?

        var instance: Any? { strong ?? weak }
        var isDead: Bool { strong == nil && weak == nil }

        mutating func instanceInPlace() -> Any? { instance }
        mutating func weakInPlace() -> AnyObject? { weak }
        mutating func isDeadInPlace() -> Bool { isDead }
        mutating func snapshotInPlace() -> RowSnapshot? { snapshot }
        mutating func keepsSnapshotInPlace(in epoch: UInt64) -> Bool { snapshot?.isKeptInPlace(in: epoch) ?? false }

        /// Holds `strong` or `weak` from now on; takes `snapshot` when given, and the stamp of
        /// the app's save that gave the instance, when it did.
        mutating func hold(strong: Any?, weak: AnyObject?, snapshot: RowSnapshot?, savedAt stamp: UInt64?) {
            self.strong = strong
            self.weak = weak
            if let snapshot { self.snapshot = snapshot }
            if let stamp {
                valuesStamp = stamp
                relationshipsStamp = stamp
            }
        }
    }

    let policy: Policy
    private(set) var appInsertions = 0
    private let lock = NSLock()
    /// One dictionary for instances and snapshots: a save's bookkeeping and a fetch's look-up
    /// each find a row's entry with one hash, in tables that hold every live instance.
    private var entries: [QSAnyID: Entry] = [:]
    /// Every key of a weak entry in the order it arrived, swept a couple per insert so that dead
    /// entries go without ever stopping to scan the whole cache (see ``sweepSomeDeadEntries()``).
    private var sweep = SweepOrder()

    init(policy: Policy) {
        self.policy = policy
    }

    func object(for id: QSAnyID) -> Any? {
        lock.lock()
        defer { lock.unlock() }
        guard let index = entries.index(forKey: id) else { return nil }
        return entries.values[index].instanceInPlace()
    }

    func weakObject(for id: QSAnyID) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        guard let index = entries.index(forKey: id) else { return nil }
        return entries.values[index].weakInPlace()
    }

    /// The instances for `ids`, in order, under one lock.
    func objects(for ids: [QSAnyID]) -> [Any?] {
        read(ids) { $0.instanceInPlace() }
    }

    /// The weakly held instances for `ids`, in order, under one lock.
    func weakObjects(for ids: [QSAnyID]) -> [AnyObject?] {
        read(ids) { $0.weakInPlace() }
    }

    /// What `value` reads from the entry of each of `ids` (nil where there is none), under one lock.
    private func read<Value>(_ ids: [QSAnyID], _ value: (inout Entry) -> Value?) -> [Value?] {
        lock.lock()
        defer { lock.unlock() }
        return ids.map { id in
            guard let index = entries.index(forKey: id) else { return nil }
            return value(&entries.values[index])
        }
    }

    /// The live instance for `id`, or, when there is none, whether the snapshot kept from a dead
    /// one can serve a new instance in `epoch` (inserted without a snapshot, it keeps the dead one's). One
    /// look, under one lock, for what a fetch asks of every row it reads.
    func weakObjectOrKeptSnapshot(for id: QSAnyID, epoch: UInt64) -> (object: AnyObject?, keepsSnapshot: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard let index = entries.index(forKey: id) else { return (nil, false) }
        if let object = entries.values[index].weakInPlace() { return (object, false) }
        return (nil, entries.values[index].keepsSnapshotInPlace(in: epoch))
    }

    func insert(weak instance: AnyObject, id: QSAnyID, snapshot: RowSnapshot?, fromApp: Bool) {
        lock.lock()
        defer { lock.unlock() }
        insertLocked(strong: nil, weak: instance, id: id, snapshot: snapshot, fromApp: fromApp)
    }

    func insert(strong instance: Any, id: QSAnyID, snapshot: RowSnapshot?, fromApp: Bool) {
        lock.lock()
        defer { lock.unlock() }
        insertLocked(strong: instance, weak: nil, id: id, snapshot: snapshot, fromApp: fromApp)
    }

    /// An instance the app saved, as `insertFromApp` takes it: `strong` for a permanent cache,
    /// `weak` for a uniqued class.
    struct AppInstance {
        let id: QSAnyID
        let strong: Any?
        let weak: AnyObject?
    }

    /// Keeps `count` instances the app saved, `instance(k)` giving the k-th, under one lock.
    /// Returns, for each, whether its entry is new, and so holds no snapshot.
    func insertFromApp(count: Int, _ instance: (Int) -> AppInstance) -> [Bool] {
        lock.lock()
        defer { lock.unlock() }
        var isNew: [Bool] = []
        isNew.reserveCapacity(count)
        for k in 0 ..< count {
            let saved = instance(k)
            isNew.append(insertLocked(strong: saved.strong, weak: saved.weak, id: saved.id, snapshot: nil, fromApp: true))
        }
        return isNew
    }

    /// Keeps the instance in the entry for `id`, made when missing. An entry replaced keeps its
    /// stamps and snapshot unless `snapshot` is given, or the app saved the instance (then the
    /// stamps are now). Returns whether the entry is new. Call with the lock held.
    @discardableResult
    private func insertLocked(strong: Any?, weak: AnyObject?, id: QSAnyID, snapshot: RowSnapshot?, fromApp: Bool) -> Bool {
        var addsKey = false
        func newEntry() -> Entry {
            addsKey = true
            return Entry()
        }
        entries[id, default: newEntry()].hold(strong: strong, weak: weak, snapshot: snapshot, savedAt: fromApp ? WriteStamp.current : nil)
        if fromApp { appInsertions += 1 }
        // Only a new key grows the table, so only a new key pays for sweeping: fetching the
        // same rows again reuses their dead entries and sweeps nothing.
        if addsKey, policy == .weak {
            sweep.keys.append(id)
            sweepSomeDeadEntries()
        }
        return addsKey
    }

    /// The snapshots of `ids`, in order, under one lock; nil without a look where `isKnownMissing`
    /// says there is none.
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        lock.lock()
        defer { lock.unlock() }
        return zip(ids, isKnownMissing).map { id, isKnownMissing in
            guard !isKnownMissing, let index = entries.index(forKey: id) else { return nil }
            return entries.values[index].snapshotInPlace()
        }
    }

    /// Sets the snapshots of these uniqueIDs, under one lock; an ID without an entry is skipped.
    /// An ID listed twice gets either of its snapshots.
    func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)]) {
        lock.lock()
        defer { lock.unlock() }
        // Taken from the end, so that each snapshot moves into its entry instead of being copied
        // (a retain of each of its arrays, which the main actor has just written).
        while let (id, snapshot) = updates.popLast() {
            guard let index = entries.index(forKey: id) else { continue }
            entries.values[index].snapshot = snapshot
        }
    }

    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)]) {
        lock.lock()
        defer { lock.unlock() }
        for id in ids {
            guard let index = entries.index(forKey: id) else { continue }
            for column in columns { entries.values[index].snapshot?.values[column.index] = column.value }
        }
    }

    func reserveCapacity(adding count: Int) {
        lock.lock()
        entries.reserveCapacity(entries.count + count)
        if policy == .weak { sweep.keys.reserveCapacity(sweep.keys.count + count) }
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
        guard let index = entries.index(forKey: id) else { return false }
        let saved = relationships ? entries.values[index].relationshipsStamp : entries.values[index].valuesStamp
        return saved > stamp
    }

    func remove(_ ids: [QSAnyID]) -> [Any] {
        var removed: [Any] = []
        lock.lock()
        for id in ids {
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
            guard let key = sweep.next() else { return }
            guard let index = entries.index(forKey: key) else { continue }
            if entries.values[index].isDeadInPlace() {
                entries.remove(at: index)
            } else {
                sweep.keep(key)
            }
        }
    }

    /// Drops every entry whose instance is gone.
    private func pruneDeadEntries() {
        entries = entries.filter { !$0.value.isDead }
        sweep = SweepOrder(keys: Array(entries.keys))
    }
}

/// The keys of a weak cache in the order they arrived, walked a few at a time: each key looked
/// at is kept (compacted towards the front) or dropped, and a walk that reaches the end starts
/// over. A struct, so that each step is one access to the table's property rather than one per
/// field (each a run-time exclusivity check).
private struct SweepOrder {
    var keys: [QSAnyID] = []
    private var read = 0
    private var write = 0

    init(keys: [QSAnyID] = []) {
        self.keys = keys
    }

    /// The next key to look at; nil at the end of a walk, which drops the keys not kept.
    mutating func next() -> QSAnyID? {
        guard read < keys.count else {
            keys.removeLast(keys.count - write)
            read = 0
            write = 0
            return nil
        }
        read += 1
        return keys[read - 1]
    }

    /// Keeps the key just looked at.
    mutating func keep(_ key: QSAnyID) {
        keys[write] = key
        write += 1
    }
}
