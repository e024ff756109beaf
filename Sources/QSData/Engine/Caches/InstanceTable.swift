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

    /// One cached instance, held strongly or weakly (stored inline, so keeping a uniqued instance
    /// costs no allocation of its own).
    ///
    /// Read and changed only where it lies in the dictionary (`entries.values[index]`, and the
    /// `InPlace` methods below, `mutating` for that reason alone): a dictionary lends its values
    /// in place for mutation, where a plain read copies the entry, and copying the weak
    /// reference costs atomic operations on the instance's side table.
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

        mutating func instanceInPlace() -> Any? { instance }
        mutating func weakInPlace() -> AnyObject? { weak }
        mutating func isDeadInPlace() -> Bool { isDead }

        mutating func holdIfDead(strong: Any?, weak: AnyObject?) {
            guard isDead else { return }
            self.strong = strong
            self.weak = weak
        }

        /// Holds `strong` or `weak` from now on, with the stamp of the app's save that gave the
        /// instance, when it did.
        mutating func hold(strong: Any?, weak: AnyObject?, savedAt stamp: UInt64?) {
            self.strong = strong
            self.weak = weak
            if let stamp {
                valuesStamp = stamp
                relationshipsStamp = stamp
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

    func weakObject(for id: QSAnyID) -> AnyObject? {
        guard let index = entries.index(forKey: id) else { return nil }
        return entries.values[index].weakInPlace()
    }

    /// Keeps `instance` in the entry for `id`, replacing the instance there (its stamps stay).
    func insert(_ instance: Instance, id: QSAnyID) {
        switch instance {
        case .weak(let object): insert(strong: nil, weak: object, id: id, fromApp: false)
        case .strong(let value): insert(strong: value, weak: nil, id: id, fromApp: false)
        }
        outsideInsertions += 1
    }

    /// Keeps `instance`, which a fetch made, unless an instance for `id` is alive: one the app
    /// saved while the fetch ran stands for the row (its save hands it to the queue next).
    func insertFetched(_ instance: Instance, id: QSAnyID) {
        var addsKey = false
        func newEntry() -> Entry {
            addsKey = true
            return Entry()
        }
        switch instance {
        case .weak(let object): entries[id, default: newEntry()].holdIfDead(strong: nil, weak: object)
        case .strong(let value): entries[id, default: newEntry()].holdIfDead(strong: value, weak: nil)
        }
        if addsKey, policy == .weak {
            sweep.keys.append(id)
            sweepSomeDeadEntries()
        }
    }

    /// An instance the app saved, as `insertFromApp` takes it: `strong` for a permanent cache,
    /// `weak` for a uniqued class.
    struct AppInstance {
        let id: QSAnyID
        let strong: Any?
        let weak: AnyObject?
    }

    /// Keeps `count` instances the app saved, `instance(k)` giving the k-th. Returns them as the
    /// queue's table will keep them, for the save's write to hand over.
    func insertFromApp(count: Int, _ instance: (Int) -> AppInstance) -> [Instance] {
        var instances: [Instance] = []
        instances.reserveCapacity(count)
        for k in 0 ..< count {
            let saved = instance(k)
            insert(strong: saved.strong, weak: saved.weak, id: saved.id, fromApp: true)
            if let weak = saved.weak {
                instances.append(.weak(weak))
            } else if let strong = saved.strong {
                instances.append(.strong(strong))
            }
        }
        outsideInsertions += count
        return instances
    }

    /// Keeps the instance in the entry for `id`, made when missing. An entry replaced keeps its
    /// stamps unless the app saved the instance (then the stamps are now).
    private func insert(strong: Any?, weak: AnyObject?, id: QSAnyID, fromApp: Bool) {
        var addsKey = false
        func newEntry() -> Entry {
            addsKey = true
            return Entry()
        }
        entries[id, default: newEntry()].hold(strong: strong, weak: weak, savedAt: fromApp ? WriteStamp.current : nil)
        // Only a new key grows the table, so only a new key pays for sweeping: fetching the
        // same rows again reuses their dead entries and sweeps nothing.
        if addsKey, policy == .weak {
            sweep.keys.append(id)
            sweepSomeDeadEntries()
        }
    }

    func reserveCapacity(adding count: Int) {
        entries.reserveCapacity(entries.count + count)
        if policy == .weak { sweep.keys.reserveCapacity(sweep.keys.count + count) }
    }

    func markValuesSaved(_ id: QSAnyID) {
        entries[id]?.valuesStamp = WriteStamp.current
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
