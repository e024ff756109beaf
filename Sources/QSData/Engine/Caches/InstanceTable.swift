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

    let policy: Policy
    // Touched for every row or instance, by one thread, one access at a time: unchecked, since
    // Swift's dynamic exclusivity check cost more than most of the accesses.
    /// Counts the instances put in other than from a fetch's own report (saves, replacements), so
    /// a fetch can tell cheaply whether one may have arrived while it ran.
    @exclusivity(unchecked) private(set) var outsideInsertions = 0
    /// The rows, held as `policy` says: only that one of the two is ever used (the other stays
    /// empty, which costs no allocation).
    @exclusivity(unchecked) private var weakRows = HeldRows<WeaklyHeld>()
    @exclusivity(unchecked) private var strongRows = HeldRows<StronglyHeld>()

    nonisolated init(policy: Policy) {
        self.policy = policy
    }

    func object(for id: QSAnyID) -> Any? {
        switch policy {
        case .none: nil
        case .weak: weakRows.value(for: id)
        case .strong: strongRows.value(for: id)
        }
    }

    /// The instance held for `id`, as the table keeps it; nil when none is alive.
    func instance(for id: QSAnyID) -> Instance? {
        switch policy {
        case .none: nil
        case .weak: weakRows.instance(for: id)
        case .strong: strongRows.instance(for: id)
        }
    }

    /// The instance held for `id` in a weak table.
    func weakObject(for id: QSAnyID) -> AnyObject? {
        weakRows.weakObject(for: id)
    }

    /// Keeps `instance` in the entry for `id`, replacing the instance there (its stamps stay).
    func insert(_ instance: Instance, id: QSAnyID) {
        switch policy {
        case .none: return
        case .weak: weakRows.insert(instance, id: id)
        case .strong: strongRows.insert(instance, id: id)
        }
        outsideInsertions += 1
    }

    /// Keeps the instances a fetch made, unless an instance for the row is alive: one the app
    /// saved while the fetch ran stands for the row (its save hands it to the queue next).
    func insertFetched(_ instances: [Instance], ids: [QSAnyID]) {
        switch policy {
        case .none: break
        case .weak: weakRows.insertFetched(instances, ids: ids)
        case .strong: strongRows.insertFetched(instances, ids: ids)
        }
    }

    /// Keeps `count` instances the app saved through the save `stamp`, `instance(k)` giving the
    /// k-th with its uniqueID. Returns them, for the save's write to hand to the queue's table.
    func insertFromApp(count: Int, stamp: UInt64, _ instance: (Int) -> (id: QSAnyID, instance: Instance)) -> [Instance] {
        var instances: [Instance] = []
        instances.reserveCapacity(count)
        switch policy {
        case .none: return []
        case .weak: weakRows.insertFromApp(count: count, stamp: stamp, instance, into: &instances)
        case .strong: strongRows.insertFromApp(count: count, stamp: stamp, instance, into: &instances)
        }
        outsideInsertions += count
        return instances
    }

    func reserveCapacity(adding count: Int) {
        switch policy {
        case .none: break
        case .weak: weakRows.entries.reserveCapacity(adding: count)
        case .strong: strongRows.entries.reserveCapacity(adding: count)
        }
    }

    func markValuesSaved(_ id: QSAnyID, stamp: UInt64) {
        switch policy {
        case .none: break
        case .weak: weakRows.markValuesSaved(id, stamp: stamp)
        case .strong: strongRows.markValuesSaved(id, stamp: stamp)
        }
    }

    func savedByApp(_ id: QSAnyID, after stamp: UInt64, relationships: Bool) -> Bool {
        switch policy {
        case .none: false
        case .weak: weakRows.savedByApp(id, after: stamp, relationships: relationships)
        case .strong: strongRows.savedByApp(id, after: stamp, relationships: relationships)
        }
    }

    func remove(_ ids: [QSAnyID]) -> [Any] {
        switch policy {
        case .none: []
        case .weak: weakRows.remove(ids)
        case .strong: strongRows.remove(ids)
        }
    }

    var allObjects: [Any] {
        switch policy {
        case .none: []
        case .weak: weakRows.allValues
        case .strong: strongRows.allValues
        }
    }

    /// Whether the table has no entry at all, not even one whose instance has died; unlike
    /// ``count`` it sweeps nothing.
    var isEmpty: Bool { weakRows.entries.isEmpty && strongRows.entries.isEmpty }

    var count: Int {
        switch policy {
        case .none: 0
        case .weak: weakRows.countAlive()
        case .strong: strongRows.countAlive()
        }
    }
}

/// One entry of the main actor's table: the instance, and the stamps of the saves that gave it
/// its values.
private struct HeldEntry<Held: HeldInstance> {
    var held = Held()
    /// The ``WriteStamp`` of the last save that gave the instance its column values, and of
    /// the last that gave it its relationships (saving another type on the table sets only the
    /// first).
    var valuesStamp: UInt64 = 0
    var relationshipsStamp: UInt64 = 0

    /// Holds `instance` from now on, with the stamp of the app's save that gave it, when it did.
    mutating func hold(_ instance: Instance, savedAt stamp: UInt64?) {
        held.hold(instance)
        if let stamp {
            valuesStamp = stamp
            relationshipsStamp = stamp
        }
    }
}

/// The rows of an ``InstanceTable``, held as `Held` says. Each method changes the table in one
/// access to it.
private struct HeldRows<Held: HeldInstance> {
    /// Swept a step per new entry when instances can die, so that dead entries go without ever
    /// stopping to scan the whole table (see ``IDTable/sweep(afterAdding:isDead:)``).
    var entries = IDTable<HeldEntry<Held>>()

    mutating func value(for id: QSAnyID) -> Any? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.held.value }
    }

    mutating func instance(for id: QSAnyID) -> Instance? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.held.instance }
    }

    mutating func insert(_ instance: Instance, id: QSAnyID) {
        let (position, isNew) = entries.position(adding: id) { HeldEntry() }
        entries.update(at: position) { $0.hold(instance, savedAt: nil) }
        if isNew { sweep(afterAdding: 1) }
    }

    mutating func insertFetched(_ instances: [Instance], ids: [QSAnyID]) {
        entries.reserveCapacity(adding: ids.count)
        let oldCount = entries.count
        for (id, instance) in zip(ids, instances) {
            let position = entries.position(adding: id) { HeldEntry() }.position
            entries.update(at: position) { entry in
                if entry.held.isDead { entry.held.hold(instance) }
            }
        }
        sweep(afterAdding: entries.count - oldCount)
    }

    /// An entry replaced gets the save's `stamp`.
    mutating func insertFromApp(
        count: Int, stamp: UInt64, _ instance: (Int) -> (id: QSAnyID, instance: Instance), into instances: inout [Instance]
    ) {
        let oldCount = entries.count
        for k in 0 ..< count {
            let saved = instance(k)
            let position = entries.position(adding: saved.id) { HeldEntry() }.position
            entries.update(at: position) { $0.hold(saved.instance, savedAt: stamp) }
            instances.append(saved.instance)
        }
        sweep(afterAdding: entries.count - oldCount)
    }

    mutating func markValuesSaved(_ id: QSAnyID, stamp: UInt64) {
        guard let position = entries.position(of: id) else { return }
        entries.update(at: position) { $0.valuesStamp = stamp }
    }

    mutating func savedByApp(_ id: QSAnyID, after stamp: UInt64, relationships: Bool) -> Bool {
        guard let position = entries.position(of: id) else { return false }
        let saved = entries.update(at: position) { relationships ? $0.relationshipsStamp : $0.valuesStamp }
        return saved > stamp
    }

    mutating func remove(_ ids: [QSAnyID]) -> [Any] {
        var removed: [Any] = []
        for id in ids {
            if let value = entries.remove(id)?.held.value { removed.append(value) }
        }
        return removed
    }

    var allValues: [Any] {
        entries.entries.compactMap(\.held.value)
    }

    mutating func countAlive() -> Int {
        entries.keepOnly { !$0.held.isDead }
        return entries.count
    }

    /// Only a new entry grows the table, so only a new entry pays for sweeping; a table whose
    /// instances never die is never swept.
    private mutating func sweep(afterAdding added: Int) {
        guard Held.canDie else { return }
        entries.sweep(afterAdding: added) { $0.held.isDead }
    }
}

extension HeldRows where Held == WeaklyHeld {
    mutating func weakObject(for id: QSAnyID) -> AnyObject? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.held.object }
    }
}
