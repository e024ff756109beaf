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
    /// `hashes` are those of `ids` (see ``IDHashing``).
    func insertFetched(_ instances: [Instance], ids: [QSAnyID], hashes: [UInt64]) {
        switch policy {
        case .none: break
        case .weak: weakRows.insertFetched(instances, ids: ids, hashes: hashes)
        case .strong: strongRows.insertFetched(instances, ids: ids, hashes: hashes)
        }
    }

    /// Keeps the instances at `positions` of `instances`, which the app saved, for the uniqueIDs
    /// at the same positions of `ids`, and notes the save's `stamp` beside them when it has one
    /// (see ``markValuesSaved(_:stamp:)``).
    func insertFromApp(_ instances: [Instance?], ids: [QSAnyID], at positions: [Int], stamp: UInt64?) {
        switch policy {
        case .none: return
        case .weak: weakRows.insertFromApp(instances, ids: ids, at: positions, stamp: stamp)
        case .strong: strongRows.insertFromApp(instances, ids: ids, at: positions, stamp: stamp)
        }
        outsideInsertions += positions.count
    }

    func reserveCapacity(adding count: Int) {
        switch policy {
        case .none: break
        case .weak: weakRows.entries.reserveCapacity(adding: count)
        case .strong: strongRows.entries.reserveCapacity(adding: count)
        }
    }

    /// Notes that the instance for `id` holds the column values of the app's save `stamp`, made
    /// while an earlier write was unsettled: that write's patch or restore leaves them alone.
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

    /// Every write has settled: no patch or restore is left to come from a write before a save,
    /// so the saves' stamps are forgotten.
    func forgetSaveStamps() {
        weakRows.forgetSaveStamps()
        strongRows.forgetSaveStamps()
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

/// The ``WriteStamp``s of the app's saves that gave a held instance its values.
private struct SaveStamps {
    /// The last save that gave the instance its column values, and the last that gave it its
    /// relationships (saving another type on the table sets only the first).
    var values: UInt64 = 0
    var relationships: UInt64 = 0
}

/// The rows of an ``InstanceTable``, held as `Held` says. Each method changes the table in one
/// access to it.
private struct HeldRows<Held: HeldInstance> {
    /// Swept a step per new entry when instances can die, so that dead entries go without ever
    /// stopping to scan the whole table (see ``IDTable/sweep(afterAdding:isDead:removed:)``).
    var entries = IDTable<Held>()
    /// The stamps of the saves that gave instances their values, for rows the app saved while an
    /// earlier write was unsettled: that write's patch or restore, reaching the main actor after
    /// the save, leaves what the save gave alone. A save made with every earlier write settled
    /// keeps none (no patch can come from a write before it), and all are forgotten once every
    /// write has settled, so the table's entries carry no stamps of their own.
    var saveStamps: [QSAnyID: SaveStamps] = [:]

    mutating func value(for id: QSAnyID) -> Any? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.value }
    }

    mutating func instance(for id: QSAnyID) -> Instance? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.instance }
    }

    mutating func insert(_ instance: Instance, id: QSAnyID) {
        let (position, isNew) = entries.position(adding: id) { Held() }
        entries.update(at: position) { $0.hold(instance) }
        if isNew { sweep(afterAdding: 1) }
    }

    mutating func insertFetched(_ instances: [Instance], ids: [QSAnyID], hashes: [UInt64]) {
        assert(instances.count == ids.count && hashes.count == ids.count, "instances, IDs and hashes out of step")
        entries.reserveCapacity(adding: ids.count)
        let oldCount = entries.count
        for index in ids.indices {
            let instance = instances[index]
            let position = entries.position(adding: ids[index], hash: hashes[index]) { Held() }.position
            entries.update(at: position) { held in
                if held.isDead { held.hold(instance) }
            }
        }
        sweep(afterAdding: entries.count - oldCount)
    }

    /// With a `stamp`, the instances get it (see ``saveStamps``).
    mutating func insertFromApp(_ instances: [Instance?], ids: [QSAnyID], at positions: [Int], stamp: UInt64?) {
        let oldCount = entries.count
        for saved in positions {
            let id = ids[saved]
            let position = entries.position(adding: id) { Held() }.position
            // Read inside the change, next to the assignment: read before it, the instance would
            // be copied (a retain and a release on the slow path of an object with a weak reference).
            entries.update(at: position) { held in
                if let instance = instances[saved] { held.hold(instance) }
            }
            if let stamp { saveStamps[id] = SaveStamps(values: stamp, relationships: stamp) }
        }
        sweep(afterAdding: entries.count - oldCount)
    }

    mutating func markValuesSaved(_ id: QSAnyID, stamp: UInt64) {
        guard entries.position(of: id) != nil else { return }
        saveStamps[id, default: SaveStamps()].values = stamp
    }

    func savedByApp(_ id: QSAnyID, after stamp: UInt64, relationships: Bool) -> Bool {
        guard !saveStamps.isEmpty, let saved = saveStamps[id] else { return false }
        return (relationships ? saved.relationships : saved.values) > stamp
    }

    mutating func forgetSaveStamps() {
        if !saveStamps.isEmpty { saveStamps = [:] }
    }

    mutating func remove(_ ids: [QSAnyID]) -> [Any] {
        var removed: [Any] = []
        for id in ids {
            if !saveStamps.isEmpty { saveStamps[id] = nil }
            if let value = entries.remove(id)?.value { removed.append(value) }
        }
        return removed
    }

    var allValues: [Any] {
        entries.entries.compactMap(\.value)
    }

    mutating func countAlive() -> Int {
        entries.keepOnly { !$0.isDead }
        if !saveStamps.isEmpty { saveStamps = saveStamps.filter { entries.position(of: $0.key) != nil } }
        return entries.count
    }

    /// Only a new entry grows the table, so only a new entry pays for sweeping; a table whose
    /// instances never die is never swept.
    private mutating func sweep(afterAdding added: Int) {
        guard Held.canDie else { return }
        entries.sweep(afterAdding: added, isDead: { $0.isDead }, removed: { id in
            if !saveStamps.isEmpty { saveStamps[id] = nil }
        })
    }
}

extension HeldRows where Held == WeaklyHeld {
    mutating func weakObject(for id: QSAnyID) -> AnyObject? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.object }
    }
}
