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
    /// Read and changed only where it lies in the table (through ``IDTable/update(at:_:)``): a
    /// copy of the entry would copy the weak reference, which costs atomic operations on the
    /// instance's side table.
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
    /// Swept a step per new entry, so that dead entries go without ever stopping to scan the
    /// whole table (see ``IDTable/sweep(afterAdding:isDead:)``).
    private var entries = IDTable<Entry>()

    nonisolated init(policy: Policy) {
        self.policy = policy
    }

    func object(for id: QSAnyID) -> Any? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.instance }
    }

    /// The instance held for `id`, as the table keeps it; nil when none is alive.
    func instance(for id: QSAnyID) -> Instance? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { entry in
            if let weak = entry.weak { return .weak(weak) }
            return entry.strong.map { .strong($0) }
        }
    }

    func weakObject(for id: QSAnyID) -> AnyObject? {
        guard let position = entries.position(of: id) else { return nil }
        return entries.update(at: position) { $0.weak }
    }

    /// Keeps `instance` in the entry for `id`, replacing the instance there (its stamps stay).
    func insert(_ instance: Instance, id: QSAnyID) {
        Self.insert(instance, id: id, policy: policy, into: &entries)
        outsideInsertions += 1
    }

    /// ``insert(_:id:)`` with the table passed in, so that it is one access to it.
    private static func insert(_ instance: Instance, id: QSAnyID, policy: Policy, into entries: inout IDTable<Entry>) {
        let (position, isNew) = entries.position(adding: id) { Entry() }
        entries.update(at: position) { $0.hold(instance, savedAt: nil) }
        if isNew, policy == .weak { entries.sweep(afterAdding: 1) { $0.isDead } }
    }

    /// Keeps the instances a fetch made, unless an instance for the row is alive: one the app
    /// saved while the fetch ran stands for the row (its save hands it to the queue next).
    func insertFetched(_ instances: [Instance], ids: [QSAnyID]) {
        Self.insertFetched(instances, ids: ids, policy: policy, into: &entries)
    }

    /// The loop of ``insertFetched(_:ids:)``, with the table passed in so that it is one
    /// access to it.
    private static func insertFetched(_ instances: [Instance], ids: [QSAnyID], policy: Policy, into entries: inout IDTable<Entry>) {
        entries.reserveCapacity(adding: ids.count)
        let oldCount = entries.count
        for (id, instance) in zip(ids, instances) {
            let position = entries.position(adding: id) { Entry() }.position
            entries.update(at: position) { $0.holdIfDead(instance) }
        }
        if policy == .weak { entries.sweep(afterAdding: entries.count - oldCount) { $0.isDead } }
    }

    /// Keeps `count` instances the app saved through the save `stamp`, `instance(k)` giving the
    /// k-th with its uniqueID. Returns them, for the save's write to hand to the queue's table.
    func insertFromApp(count: Int, stamp: UInt64, _ instance: (Int) -> (id: QSAnyID, instance: Instance)) -> [Instance] {
        var instances: [Instance] = []
        instances.reserveCapacity(count)
        Self.insertFromApp(count: count, stamp: stamp, instance, policy: policy, into: &entries, instances: &instances)
        outsideInsertions += count
        return instances
    }

    /// The loop of ``insertFromApp(count:stamp:_:)``, with the table passed in so that it is one
    /// access to it. An entry replaced gets the save's `stamp`.
    private static func insertFromApp(
        count: Int, stamp: UInt64, _ instance: (Int) -> (id: QSAnyID, instance: Instance), policy: Policy,
        into entries: inout IDTable<Entry>, instances: inout [Instance]
    ) {
        let oldCount = entries.count
        for k in 0 ..< count {
            let saved = instance(k)
            let position = entries.position(adding: saved.id) { Entry() }.position
            entries.update(at: position) { $0.hold(saved.instance, savedAt: stamp) }
            instances.append(saved.instance)
        }
        if policy == .weak { entries.sweep(afterAdding: entries.count - oldCount) { $0.isDead } }
    }

    func reserveCapacity(adding count: Int) {
        entries.reserveCapacity(adding: count)
    }

    func markValuesSaved(_ id: QSAnyID, stamp: UInt64) {
        guard let position = entries.position(of: id) else { return }
        entries.update(at: position) { $0.valuesStamp = stamp }
    }

    func savedByApp(_ id: QSAnyID, after stamp: UInt64, relationships: Bool) -> Bool {
        guard let position = entries.position(of: id) else { return false }
        let saved = entries.update(at: position) { relationships ? $0.relationshipsStamp : $0.valuesStamp }
        return saved > stamp
    }

    func remove(_ ids: [QSAnyID]) -> [Any] {
        var removed: [Any] = []
        for id in ids {
            if let instance = entries.remove(id)?.instance { removed.append(instance) }
        }
        return removed
    }

    var allObjects: [Any] {
        entries.entries.compactMap(\.instance)
    }

    /// Whether the table has no entry at all, not even one whose instance has died; unlike
    /// ``count`` it sweeps nothing.
    var isEmpty: Bool { entries.isEmpty }

    var count: Int {
        entries.keepOnly { !$0.isDead }
        return entries.count
    }
}
