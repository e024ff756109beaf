/// What the database queue knows of one caching type's rows: for each row read or written while
/// an instance of it is held, that instance (so that a fetch hands out the one the app holds) and
/// the row's snapshot (see ``RowSnapshot``).
///
/// Owned by the database queue: reached only through ``QueueState``, which only work running on
/// the queue is given. The main actor keeps its own table of the instances it holds
/// (``InstanceTable``); the two exchange instances by value as work crosses the queue.
///
/// One implementation, ``KnownRowTable``, generic over how it holds an instance and keeps a
/// snapshot, so that each row costs only what its type needs (see
/// ``QueueState/knownRows(of:)``).
protocol KnownRows: AnyObject {
    /// Whether the instances record which properties they set (see ``QSChangeTrackingObject``):
    /// then a snapshot keeps no values, only that the row is known and its lookup rows.
    var tracksChanges: Bool { get }

    /// The instances for `ids`, in order (nil where none is alive).
    func instances(for ids: [QSAnyID]) -> [Any?]

    /// The weakly held instances for `ids`, in order (nil for every ID in a strong table).
    func weakInstances(for ids: [QSAnyID]) -> [AnyObject?]

    /// What a fetch asks of every row it reads, in one look: the instance alive for `id`, or, when
    /// there is none, whether the snapshot kept from a dead one still says what the row holds in
    /// `epoch` (then a new instance keeps it: see ``insert(_:id:snapshot:)``).
    /// For a weak table only.
    func weakInstanceOrKeptSnapshot(for id: QSAnyID, epoch: UInt64) -> (instance: AnyObject?, keepsSnapshot: Bool)

    /// The instance for `id`, if one is alive.
    func instance(for id: QSAnyID) -> Any?

    /// Keeps `instance` for `id`: with `snapshot` when given, otherwise with the snapshot the
    /// entry has (a fetch does that only when ``weakInstanceOrKeptSnapshot(for:epoch:)`` said it
    /// can; a save records the row's new snapshot right after).
    func insert(_ instance: Instance, id: QSAnyID, snapshot: RowSnapshot?)

    /// Keeps `instance`, which a read on a reader connection made, for `id`. The row's snapshot
    /// stays only if it is true in `epoch` and knows every relationship (as a fetch would keep
    /// it); otherwise it goes, and the next save of the instance writes the row whole.
    func adoptRead(_ instance: Instance, id: QSAnyID, epoch: UInt64)

    /// Keeps the instances a save hands over (the app's, which the main actor now holds for these
    /// rows), and returns the snapshots the rows have, in order: one look per row for both.
    func adopt(_ instances: [Instance?], ids: [QSAnyID]) -> [RowSnapshot?]

    /// The snapshots of `ids`, in order; nil without a look where `isKnownMissing` says there is none.
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?]

    /// Sets the snapshots of these uniqueIDs; an ID without an entry is skipped, and an ID listed
    /// twice gets either of its snapshots.
    func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)])

    /// Changes the snapshots' values at `columns` (positions in the layout) for `ids`. Snapshots
    /// without values (see ``tracksChanges``) have none to change.
    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)])

    /// The IDs among `ids` that the table has an entry for, in order.
    func knownIDs(among ids: [QSAnyID]) -> [QSAnyID]

    /// Every ID the table has an entry for.
    var allIDs: [QSAnyID] { get }

    /// Forgets the rows `ids`: their instances and snapshots.
    func remove(_ ids: [QSAnyID])

    /// Forgets the rows `ids`, and returns the instances that were alive for them.
    func removeReturningInstances(_ ids: [QSAnyID]) -> [(id: QSAnyID, instance: Instance)]

    /// Keeps `instance` for `id` unless the table has an entry for it (a rolled-back delete puts
    /// back what it removed, but never over an instance a later save in it handed over).
    func putBack(_ instance: Instance, id: QSAnyID)

    /// Drops every entry whose instance is gone, with its snapshot.
    func pruneDeadEntries()
}

extension KnownRows {
    /// Keeps `instance` for `id`, with the snapshot the entry has.
    func insert(_ instance: Instance, id: QSAnyID) {
        insert(instance, id: id, snapshot: nil)
    }
}
