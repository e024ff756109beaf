/// The instances of one type the main actor holds, by uniqueID (see ``ObjectCache``).
///
/// The main actor's alone. What the database queue knows of the same rows (the instance a fetch
/// hands out, and each row's snapshot) is its own table, ``KnownRows``.
@MainActor
final class InstanceTable {
    enum Policy: Sendable {
        /// Nothing is kept: every fetch makes fresh values.
        case none
        /// Live instances are found again while someone holds them (uniquing).
        case weak
        /// Instances stay for the life of the store.
        case strong
    }

    /// One cached instance, held strongly (boxed: see ``Instance``) or weakly (stored inline, so
    /// keeping a uniqued instance costs no allocation of its own).
    ///
    /// Read and changed only where it lies in the dictionary (`entries.values[index]`, and the
    /// `InPlace` methods below, `mutating` for that reason alone): a dictionary lends its values
    /// in place for mutation, where a plain read copies the entry, and copying the weak
    /// reference costs atomic operations on the instance's side table.
    private struct Entry {
        weak var weak: AnyObject?
        var strong: StrongInstance?
        /// The ``WriteStamp`` of the last save that gave the instance its column values, and of
        /// the last that gave it its relationships (saving another type on the table sets
        /// only the first).
        var valuesStamp: UInt64 = 0
        var relationshipsStamp: UInt64 = 0

        var instance: Any? { strong?.value ?? weak }
        var isDead: Bool { strong == nil && weak == nil }

        mutating func instanceInPlace() -> Any? { instance }
        mutating func weakInPlace() -> AnyObject? { weak }
        mutating func isDeadInPlace() -> Bool { isDead }

        mutating func holdIfDead(_ instance: Instance) {
            guard isDead else { return }
            hold(instance)
        }

        /// Holds `instance` from now on, with the stamp of the app's save that gave it, when it did.
        mutating func hold(_ instance: Instance, savedAt stamp: UInt64?) {
            hold(instance)
            if let stamp {
                valuesStamp = stamp
                relationshipsStamp = stamp
            }
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
    /// Counts the instances put in other than from a fetch's own report (saves, replacements), so
    /// a fetch can tell cheaply whether one may have arrived while it ran.
    private(set) var outsideInsertions = 0
    private var entries: [QSAnyID: Entry] = [:]
    /// Every key of a weak entry in the order it arrived, swept a couple per insert so that dead
    /// entries go without ever stopping to scan the whole cache (see ``sweepSomeDeadEntries()``).
    private var sweep = SweepOrder()

    nonisolated init(policy: Policy) {
        self.policy = policy
    }

    func object(for id: QSAnyID) -> Any? {
        guard let index = entries.index(forKey: id) else { return nil }
        return entries.values[index].instanceInPlace()
    }

    /// The instance held for `id`, as the table keeps it; nil when none is alive.
    func instance(for id: QSAnyID) -> Instance? {
        guard let index = entries.index(forKey: id) else { return nil }
        if let weak = entries.values[index].weakInPlace() { return .weak(weak) }
        return entries.values[index].strong.map { .strong($0) }
    }

    func weakObject(for id: QSAnyID) -> AnyObject? {
        guard let index = entries.index(forKey: id) else { return nil }
        return entries.values[index].weakInPlace()
    }

    /// Keeps `instance` in the entry for `id`, replacing the instance there (its stamps stay).
    func insert(_ instance: Instance, id: QSAnyID) {
        let count = entries.count
        entries[id, default: Entry()].hold(instance, savedAt: nil)
        if entries.count != count, policy == .weak {
            sweep.keys.append(id)
            sweepSomeDeadEntries()
        }
        outsideInsertions += 1
    }

    /// Keeps the instances a fetch made, unless an instance for the row is alive: one the app
    /// saved while the fetch ran stands for the row (its save hands it to the queue next).
    func insertFetched(_ instances: [Instance], ids: [QSAnyID]) {
        let newKeys = Self.insertFetched(instances, ids: ids, into: &entries)
        // The fetch's objects hold its instances, so no sweep step needs to look at the new keys.
        if !newKeys.isEmpty, policy == .weak {
            sweep.appendAlive(newKeys, sweeping: &entries) { $0.isDeadInPlace() }
        }
    }

    /// The loop of ``insertFetched(_:ids:)``, with the table passed in so that it is one access
    /// to it. Returns the keys it added.
    private static func insertFetched(_ instances: [Instance], ids: [QSAnyID], into entries: inout [QSAnyID: Entry]) -> [QSAnyID] {
        var newKeys: [QSAnyID] = []
        for (id, instance) in zip(ids, instances) {
            let count = entries.count
            entries[id, default: Entry()].holdIfDead(instance)
            if entries.count != count { newKeys.append(id) }
        }
        return newKeys
    }

    /// Keeps `count` instances the app saved through the save `stamp`, `instance(k)` giving the
    /// k-th with its uniqueID. Returns them, for the save's write to hand to the queue's table.
    func insertFromApp(count: Int, stamp: UInt64, _ instance: (Int) -> (id: QSAnyID, instance: Instance)) -> [Instance] {
        var instances: [Instance] = []
        instances.reserveCapacity(count)
        let newKeys = Self.insertFromApp(count: count, stamp: stamp, instance, into: &entries, instances: &instances)
        // The save holds the instances, so no sweep step needs to look at the new keys.
        if !newKeys.isEmpty, policy == .weak {
            sweep.appendAlive(newKeys, sweeping: &entries) { $0.isDeadInPlace() }
        }
        outsideInsertions += count
        return instances
    }

    /// The loop of ``insertFromApp(count:stamp:_:)``, with the table passed in so that it is one
    /// access to it. An entry replaced gets the save's `stamp`. Returns the keys it added.
    private static func insertFromApp(
        count: Int, stamp: UInt64, _ instance: (Int) -> (id: QSAnyID, instance: Instance), into entries: inout [QSAnyID: Entry],
        instances: inout [Instance]
    ) -> [QSAnyID] {
        var newKeys: [QSAnyID] = []
        for k in 0 ..< count {
            let saved = instance(k)
            let count = entries.count
            entries[saved.id, default: Entry()].hold(saved.instance, savedAt: stamp)
            if entries.count != count { newKeys.append(saved.id) }
            instances.append(saved.instance)
        }
        return newKeys
    }

    func reserveCapacity(adding count: Int) {
        entries.reserveCapacity(entries.count + count)
        if policy == .weak { sweep.keys.reserveCapacity(sweep.keys.count + count) }
    }

    func markValuesSaved(_ id: QSAnyID, stamp: UInt64) {
        entries[id]?.valuesStamp = stamp
    }

    func savedByApp(_ id: QSAnyID, after stamp: UInt64, relationships: Bool) -> Bool {
        guard let index = entries.index(forKey: id) else { return false }
        let saved = relationships ? entries.values[index].relationshipsStamp : entries.values[index].valuesStamp
        return saved > stamp
    }

    func remove(_ ids: [QSAnyID]) -> [Any] {
        var removed: [Any] = []
        for id in ids {
            if let instance = entries.removeValue(forKey: id)?.instance { removed.append(instance) }
        }
        return removed
    }

    var allObjects: [Any] {
        entries.values.compactMap(\.instance)
    }

    /// Whether the table has no entry at all, not even one whose instance has died; unlike
    /// ``count`` it sweeps nothing.
    var isEmpty: Bool { entries.isEmpty }

    var count: Int {
        pruneDeadEntries()
        return entries.count
    }

    /// Looks at the next key in arrival order and drops its entry if the instance is gone,
    /// compacting the key list in place as it goes. One per new key is enough: a walk over the
    /// keys ends after as many new keys as it found, so an entry whose instance died is gone
    /// within two walks.
    private func sweepSomeDeadEntries() {
        sweep.sweepOne(from: &entries) { $0.isDeadInPlace() }
    }

    /// Drops every entry whose instance is gone.
    private func pruneDeadEntries() {
        entries = entries.filter { !$0.value.isDead }
        sweep = SweepOrder(keys: Array(entries.keys))
    }
}
