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
    /// Entries remembered and looks taken until the dead entries are dropped: as many as were
    /// left at the last drop, and at least 64, so that dropping costs each of them a constant share
    /// and a type whose instances found deleted have all died soon stops being looked at.
    private var untilPrune = 64

    var isEmpty: Bool { byID.isEmpty }

    /// Remembers the instances `removed` from the queue's table because their rows were found deleted.
    mutating func remember(_ removed: [(id: QSAnyID, instance: Instance)]) {
        for (id, instance) in removed { byID[id] = Held(object: instance.object) }
        countDown(removed.count)
    }

    /// Whether `object` is the instance that was held for `id` when its row was found deleted.
    mutating func contains(_ object: AnyObject, for id: QSAnyID) -> Bool {
        countDown(1)
        guard let held = byID[id]?.object else { return false }
        return held === object
    }

    /// Drops the entries whose instances have died.
    mutating func pruneDead() {
        if byID.values.contains(where: { $0.object == nil }) { byID = byID.filter { $0.value.object != nil } }
        untilPrune = max(64, byID.count)
    }

    private mutating func countDown(_ steps: Int) {
        untilPrune -= steps
        if untilPrune <= 0 { pruneDead() }
    }
}
