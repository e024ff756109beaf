/// What the database queue knows of one caching type's rows: for each row read or written while
/// an instance of it is held, that instance (so that a fetch hands out the one the app holds) and
/// the row's snapshot (see ``RowSnapshot``).
///
/// Owned by the database queue: reached only through ``QueueState``, which only work running on
/// the queue is given. The main actor keeps its own table of the instances it holds
/// (``InstanceTable``); the two exchange instances by value as work crosses the queue.
///
/// Its rows are a ``KnownRowTable``, generic over how it holds an instance and keeps a snapshot,
/// so that each row costs only what its type needs: weakly or strongly held as the type's cache
/// is; only an epoch per row for a uniqued class that marks its changes and has no
/// relationships (a snapshot of it holds nothing else), and only an epoch and the values' hash for
/// another uniqued class without relationships. Each method hands the work to whichever of the
/// four kinds of table the type has, by its concrete type, so that the table's code is
/// compiled for it (through a protocol, a generic type's methods run unspecialised, looking up
/// type metadata at every call).
final class KnownRows {
    typealias Policy = InstanceTable.Policy

    /// Whether the instances record which properties they set (see ``QSChangeTrackingObject``):
    /// then a snapshot keeps no values, only that the row is known and its lookup rows.
    let tracksChanges: Bool
    // Touched for every row or instance, by one thread, one access at a time: unchecked, since
    // Swift's dynamic exclusivity check cost more than most of the accesses.
    /// The rows: exactly one of the four exists.
    @exclusivity(unchecked) private var weakWhole: KnownRowTable<WeaklyHeld, WholeSnapshot>?
    @exclusivity(unchecked) private var weakEpoch: KnownRowTable<WeaklyHeld, EpochOnlySnapshot>?
    @exclusivity(unchecked) private var weakHashed: KnownRowTable<WeaklyHeld, HashedSnapshot>?
    @exclusivity(unchecked) private var strongWhole: KnownRowTable<StronglyHeld, WholeSnapshot>?
    /// The instances held for rows found deleted, which the app may save again.
    @exclusivity(unchecked) private var foundDeleted = InstancesFoundDeleted()

    init(policy: Policy, tracksChanges: Bool, hasRelationships: Bool) {
        self.tracksChanges = tracksChanges
        if policy == .strong {
            strongWhole = KnownRowTable(tracksChanges: tracksChanges)
        } else if tracksChanges, !hasRelationships {
            weakEpoch = KnownRowTable(tracksChanges: tracksChanges)
        } else if !hasRelationships {
            weakHashed = KnownRowTable(tracksChanges: tracksChanges)
        } else {
            weakWhole = KnownRowTable(tracksChanges: tracksChanges)
        }
    }

    /// The instances for `ids`, in order (nil where none is alive).
    func instances(for ids: [QSAnyID]) -> [Any?] {
        weakWhole?.instances(for: ids) ?? weakEpoch?.instances(for: ids) ?? weakHashed?.instances(for: ids) ?? strongWhole?.instances(for: ids) ?? []
    }

    /// The weakly held instances for `ids`, in order (nil for every ID in a strong table).
    func weakInstances(for ids: [QSAnyID]) -> [AnyObject?] {
        weakWhole?.weakInstances(for: ids) ?? weakEpoch?.weakInstances(for: ids) ?? weakHashed?.weakInstances(for: ids) ?? strongWhole?.weakInstances(for: ids) ?? []
    }

    /// What a fetch asks of every row it reads, in one look: the instance alive for `id`, or, when
    /// there is none, whether the snapshot kept from a dead one still says what the row holds in
    /// `epoch` (then a new instance keeps it: see ``insert(_:id:snapshot:)``).
    /// For a weak table only.
    func weakInstanceOrKeptSnapshot(for id: QSAnyID, hash: UInt64, epoch: UInt64) -> (instance: AnyObject?, keepsSnapshot: Bool) {
        weakWhole?.weakInstanceOrKeptSnapshot(for: id, hash: hash, epoch: epoch)
            ?? weakEpoch?.weakInstanceOrKeptSnapshot(for: id, hash: hash, epoch: epoch) ?? weakHashed?.weakInstanceOrKeptSnapshot(for: id, hash: hash, epoch: epoch) ?? (nil, false)
    }

    /// The instance for `id`, if one is alive.
    func instance(for id: QSAnyID) -> Any? {
        weakWhole?.instance(for: id) ?? weakEpoch?.instance(for: id) ?? weakHashed?.instance(for: id) ?? strongWhole?.instance(for: id)
    }

    /// The instance for `id`, whose hash is `hash` (see ``IDHashing``), if one is alive.
    func instance(for id: QSAnyID, hash: UInt64) -> Any? {
        weakWhole?.instance(for: id, hash: hash) ?? weakEpoch?.instance(for: id, hash: hash) ?? weakHashed?.instance(for: id, hash: hash) ?? strongWhole?.instance(for: id, hash: hash)
    }

    /// Keeps `instance` for `id`: with `snapshot` when given, otherwise with the snapshot the
    /// entry has (a fetch does that only when ``weakInstanceOrKeptSnapshot(for:hash:epoch:)`` said it
    /// can; a save records the row's new snapshot right after).
    func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot? = nil) {
        weakWhole?.insert(instance, id: id, snapshot: snapshot)
        weakEpoch?.insert(instance, id: id, snapshot: snapshot)
        weakHashed?.insert(instance, id: id, snapshot: snapshot)
        strongWhole?.insert(instance, id: id, snapshot: snapshot)
    }

    /// ``insert(_:id:snapshot:)`` for an ID hashed beforehand.
    func insert(_ instance: Instance, id: QSAnyID, hash: UInt64, snapshot: RowSnapshot? = nil) {
        weakWhole?.insert(instance, id: id, hash: hash, snapshot: snapshot)
        weakEpoch?.insert(instance, id: id, hash: hash, snapshot: snapshot)
        weakHashed?.insert(instance, id: id, hash: hash, snapshot: snapshot)
        strongWhole?.insert(instance, id: id, hash: hash, snapshot: snapshot)
    }

    /// Keeps `instance`, which a read on a reader connection made, for `id`. The row's snapshot
    /// stays only if it is true in `epoch` and knows every relationship (as a fetch would keep
    /// it); otherwise it goes, and the next save of the instance writes the row whole.
    func adoptRead(_ instance: Instance, id: QSAnyID, epoch: UInt64) {
        weakWhole?.adoptRead(instance, id: id, epoch: epoch)
        weakEpoch?.adoptRead(instance, id: id, epoch: epoch)
        weakHashed?.adoptRead(instance, id: id, epoch: epoch)
        strongWhole?.adoptRead(instance, id: id, epoch: epoch)
    }

    /// Keeps the instances a save hands over (the app's, which the main actor now holds for these
    /// rows), and returns the snapshots the rows have, in order: one look per row for both.
    func adopt(_ instances: [Instance?], ids: [QSAnyID]) -> [RowSnapshot?] {
        weakWhole?.adopt(instances, ids: ids) ?? weakEpoch?.adopt(instances, ids: ids) ?? weakHashed?.adopt(instances, ids: ids) ?? strongWhole?.adopt(instances, ids: ids) ?? []
    }

    /// The snapshots of `ids`, in order; nil without a look where `isKnownMissing` says there is none.
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        weakWhole?.snapshots(for: ids, isKnownMissing: isKnownMissing)
            ?? weakEpoch?.snapshots(for: ids, isKnownMissing: isKnownMissing) ?? weakHashed?.snapshots(for: ids, isKnownMissing: isKnownMissing)
            ?? strongWhole?.snapshots(for: ids, isKnownMissing: isKnownMissing) ?? []
    }

    /// Sets the snapshots of `ids`, one for each at the same position; an ID without an entry is
    /// skipped, and an ID listed twice gets either of its snapshots.
    func setSnapshots(_ snapshots: consuming [RowSnapshot], of ids: [QSAnyID]) {
        if weakWhole != nil {
            weakWhole?.setSnapshots(snapshots, of: ids)
        } else if weakEpoch != nil {
            weakEpoch?.setSnapshots(snapshots, of: ids)
        } else if weakHashed != nil {
            weakHashed?.setSnapshots(snapshots, of: ids)
        } else {
            strongWhole?.setSnapshots(snapshots, of: ids)
        }
    }

    /// Drops the snapshots of `ids`, keeping their entries: the next save of each row checks the
    /// database.
    func forgetSnapshots(of ids: [QSAnyID]) {
        weakWhole?.forgetSnapshots(of: ids)
        weakEpoch?.forgetSnapshots(of: ids)
        weakHashed?.forgetSnapshots(of: ids)
        strongWhole?.forgetSnapshots(of: ids)
    }

    /// The rows `ids` changed some of their columns in place: their snapshots no longer say what
    /// the columns hold, and their next save reads the row to find what differs. Snapshots without
    /// values (see ``tracksChanges``) have nothing to forget.
    func forgetValues(of ids: [QSAnyID]) {
        weakWhole?.forgetValues(of: ids)
        weakEpoch?.forgetValues(of: ids)
        weakHashed?.forgetValues(of: ids)
        strongWhole?.forgetValues(of: ids)
    }

    /// The IDs among `ids` that the table has an entry for, in order.
    func knownIDs(among ids: [QSAnyID]) -> [QSAnyID] {
        weakWhole?.knownIDs(among: ids) ?? weakEpoch?.knownIDs(among: ids) ?? weakHashed?.knownIDs(among: ids) ?? strongWhole?.knownIDs(among: ids) ?? []
    }

    /// Every ID the table has an entry for.
    var allIDs: [QSAnyID] {
        weakWhole?.allIDs ?? weakEpoch?.allIDs ?? weakHashed?.allIDs ?? strongWhole?.allIDs ?? []
    }

    /// Forgets the rows `ids`: their instances and snapshots.
    func remove(_ ids: [QSAnyID]) {
        weakWhole?.remove(ids)
        weakEpoch?.remove(ids)
        weakHashed?.remove(ids)
        strongWhole?.remove(ids)
    }

    /// Forgets the rows `ids`, and returns the instances that were alive for them.
    func removeReturningInstances(_ ids: [QSAnyID]) -> [(id: QSAnyID, instance: Instance)] {
        weakWhole?.removeReturningInstances(ids) ?? weakEpoch?.removeReturningInstances(ids) ?? weakHashed?.removeReturningInstances(ids)
            ?? strongWhole?.removeReturningInstances(ids) ?? []
    }

    /// Forgets the rows `ids`, which a read of the change log found deleted, and returns the
    /// instances that were alive for them; those are remembered (see ``InstancesFoundDeleted``).
    func removeFoundDeleted(_ ids: [QSAnyID]) -> [(id: QSAnyID, instance: Instance)] {
        let removed = removeReturningInstances(ids)
        if !removed.isEmpty { foundDeleted.remember(removed) }
        return removed
    }

    /// Whether any instance held for a row found deleted is remembered.
    var hasInstancesFoundDeleted: Bool { !foundDeleted.isEmpty }

    /// Whether `object` was held for the row `id` when a read of the change log found that row
    /// deleted: a save of it inserts the row again.
    func wasFoundDeleted(_ id: QSAnyID, heldBy object: AnyObject) -> Bool {
        foundDeleted.contains(object, for: id)
    }

    /// Keeps `instance` for `id` unless the table has an entry for it (a rolled-back delete puts
    /// back what it removed, but never over an instance a later save in it handed over).
    func putBack(_ instance: Instance, id: QSAnyID) {
        weakWhole?.putBack(instance, id: id)
        weakEpoch?.putBack(instance, id: id)
        weakHashed?.putBack(instance, id: id)
        strongWhole?.putBack(instance, id: id)
    }

    /// Drops every entry whose instance is gone, with its snapshot, and forgets the instances
    /// found deleted that are gone.
    func pruneDeadEntries() {
        weakWhole?.pruneDeadEntries()
        weakEpoch?.pruneDeadEntries()
        weakHashed?.pruneDeadEntries()
        strongWhole?.pruneDeadEntries()
        foundDeleted.pruneDead()
    }
}
