/// The instances that were held for rows a read of the change log found deleted (by sync, by
/// another process, by the app's own SQL), kept weakly, by uniqueID, while the app may still
/// hold them.
///
/// A save of such an instance inserts its row again. The store says so to the commit hook
/// (see ``QSCommittingTransaction/rowsInsertedAgain``): for sync, an edit of an object deleted
/// elsewhere is not the creation of a new one. A new instance with the same uniqueID is not one
/// of these. Database queue only.
struct InstancesFoundDeleted {
    private struct Held {
        weak var object: AnyObject?
    }

    private var byID: [QSAnyID: Held] = [:]
    /// How many entries there may be before the dead ones are dropped.
    private var pruneAt = 64

    var isEmpty: Bool { byID.isEmpty }

    /// Remembers the instances `removed` from the queue's table because their rows were found deleted.
    mutating func remember(_ removed: [(id: QSAnyID, instance: Instance)]) {
        for (id, instance) in removed { byID[id] = Held(object: instance.object) }
        guard byID.count > pruneAt else { return }
        byID = byID.filter { $0.value.object != nil }
        pruneAt = max(64, byID.count * 2)
    }

    /// Whether `object` is the instance that was held for `id` when its row was found deleted.
    func contains(_ object: AnyObject, for id: QSAnyID) -> Bool {
        guard let held = byID[id]?.object else { return false }
        return held === object
    }
}
