/// What the database holds for one row of a type, as the store last read or wrote it.
///
/// The database queue keeps one for every row whose instance is held (uniqued instances while
/// alive, permanently cached ones), in its table of known rows (``KnownRows``), so that saving
/// writes only what changed. It changes only on the queue, inside the write that makes it true; a
/// write that rolls back drops the snapshots it touched.
///
/// Of the columns it keeps a hash, not the values (see ``RowHash``): a save whose encoded row
/// hashes the same changed nothing and writes nothing; one that hashes otherwise reads the row to
/// find the columns that differ (see ``ColumnsTheAppChanged``). A copy of the values would cost
/// each held instance about as much memory again as its own data.
struct RowSnapshot: Sendable {
    /// The hash of the columns in the layout's order, as the type encodes them; nil when the
    /// snapshot says nothing of them (instances that mark their changes, or a row a bulk update
    /// changed in place).
    var valuesHash: RowHash? {
        get { flagsAndEpoch & Self.hasValuesBit != 0 ? RowHash(bits: hashBits) : nil }
        set {
            hashBits = newValue?.bits ?? 0
            flagsAndEpoch = newValue == nil ? flagsAndEpoch & ~Self.hasValuesBit : flagsAndEpoch | Self.hasValuesBit
        }
    }
    /// Per relationship, in the model's order: its lookup rows, when known.
    let lookups: [LookupSlot]
    private var hashBits: UInt64 = 0
    /// ``epoch`` in the low 62 bits, ``knowsEveryLookup`` in the top one and whether there is a
    /// ``valuesHash`` in the next: one word rather than three, since the queue keeps a snapshot
    /// for every row whose instance is held.
    private var flagsAndEpoch: UInt64

    private static let knowsEveryLookupBit: UInt64 = 1 << 63
    private static let hasValuesBit: UInt64 = 1 << 62
    private static let flagBits = knowsEveryLookupBit | hasValuesBit

    init(valuesHash: RowHash?, lookups: [LookupSlot], epoch: UInt64) {
        self.lookups = lookups
        flagsAndEpoch = epoch
        if lookups.allSatisfy({ $0.isKnown }) { flagsAndEpoch |= Self.knowsEveryLookupBit }
        self.valuesHash = valuesHash
    }

    /// Whether every relationship's lookup rows are known: worked out once, at creation, because
    /// a fetch asks for every row it reads, and searching `lookups` copied each of its slices.
    var knowsEveryLookup: Bool { flagsAndEpoch & Self.knowsEveryLookupBit != 0 }

    /// The ``SnapshotTrust`` epoch in which this was known to be what the row holds; a fetch
    /// keeps the snapshot for a new instance only in that epoch. Epochs count the store's
    /// reasons to distrust its snapshots, far below 2⁶².
    private(set) var epoch: UInt64 {
        get { flagsAndEpoch & ~Self.flagBits }
        set { flagsAndEpoch = (flagsAndEpoch & Self.flagBits) | newValue }
    }

    /// The snapshot of a row a save just inserted in `epoch`, from its encoded `values` and
    /// `lookups` (for each relationship the object set, the children in order with the order
    /// values of a new parent's rows): a relationship its object left alone has no lookup rows yet.
    /// Without `values` for an instance that marks its changes.
    static func inserted(values: RowValues?, lookups: [LookupSlot], epoch: UInt64) -> RowSnapshot {
        let valuesHash = values.map { RowHash(of: $0) }
        let snapshot = RowSnapshot(valuesHash: valuesHash, lookups: lookups, epoch: epoch)
        guard snapshot.knowsEveryLookup else {
            return RowSnapshot(valuesHash: valuesHash, lookups: lookups.map { LookupSlot(rows: $0.rows ?? .empty) }, epoch: epoch)
        }
        return snapshot
    }

    /// This snapshot without its values' hash, for a row whose instance says which properties it
    /// set (see ``QSChangeTrackingObject``): it still says that the row is known, since when, and
    /// what its lookup rows are.
    var withoutValues: RowSnapshot {
        guard valuesHash != nil else { return self }
        var snapshot = self
        snapshot.valuesHash = nil
        return snapshot
    }

    /// Whether a fetch in `epoch` can keep this for a new instance of the row: it is known true
    /// and knows every relationship's lookup rows, as a snapshot the fetch made would.
    func isKept(in epoch: UInt64) -> Bool {
        self.epoch == epoch && knowsEveryLookup
    }
}

/// One relationship's place in a row's snapshot: its lookup rows, or nil when they are not known
/// (not read yet, or not set by the object encoded).
///
/// A struct of its own rather than a bare optional, so that arrays of them are copied and
/// destroyed by code compiled for the type: an array of `LookupSnapshot?` goes through the
/// runtime's generic witnesses of `Optional`, about 130 instructions an element each time.
struct LookupSlot: Sendable, Equatable {
    var rows: LookupSnapshot?

    static let unknown = LookupSlot(rows: nil)

    /// Whether the rows are known. A pattern rather than `rows != nil`, which, `LookupSnapshot`
    /// being `Equatable`, compared two optionals and copied the rows to do it.
    var isKnown: Bool {
        if case .some = rows { true } else { false }
    }
}

/// One parent's lookup rows for one relationship: the children in order, with their order values.
///
/// Slices, so that the snapshots a fetch makes share the lookup rows it read rather than copying
/// each parent's out (two allocations per parent and relationship, most of a fetch's snapshot
/// cost). The price: the fetch's rows stay in memory while any of its snapshots does, until a
/// save gives that parent rows of its own.
struct LookupSnapshot: Sendable, Equatable {
    var childIDs: ChildIDs
    var indexes: ArraySlice<Int64>

    static let empty = LookupSnapshot(childIDs: .empty, indexes: [])

    /// The rows of a parent that has none yet, for `children` in order. A child listed twice keeps
    /// its first position: a lookup table has one row per pair. Repeats are looked for unless the
    /// list is `knownDistinct`.
    static func forNewParent(_ children: ChildIDs, knownDistinct: Bool) -> LookupSnapshot {
        LookupDiff.fresh(knownDistinct ? children : children.firstOccurrences)
    }
}

/// Lookup rows read for many parents. The rows arrive ordered by parent, so they are kept as one
/// flat list, with where each parent's run of it lies: no array per parent is made unless asked for.
struct LookupRows {
    /// Every row's child, in the order read: each parent's children in order, parent after
    /// parent; complete once ``finish()`` is called.
    private(set) var childIDs = ChildIDs.empty
    private var childIDsSoFar = ChildIDs.Builder()
    private(set) var indexes: [Int64] = []
    /// Where each parent's run of `childIDs` lies, once ``finish()`` is called.
    private(set) var runs = ParentRuns.Builder().finished(at: 0)
    private var runsSoFar = ParentRuns.Builder()
    private var currentParent: QSAnyID?

    mutating func append(parent: QSAnyID, child: QSAnyID, index: Int64) {
        if parent != currentParent {
            runsSoFar.beginRun(of: parent, at: indexes.count)
            currentParent = parent
        }
        childIDsSoFar.append(child)
        indexes.append(index)
    }

    /// Ends the last parent's run; call once all rows are appended.
    mutating func finish() {
        runs = runsSoFar.finished(at: indexes.count)
        childIDs = childIDsSoFar.finished
        childIDsSoFar = ChildIDs.Builder()
    }

    /// One parent's rows, empty when it has none. `cursor` is the caller's position in the
    /// parents (see ``ParentRuns``).
    func snapshot(of parent: QSAnyID, cursor: inout Int) -> LookupSnapshot {
        guard let range = runs.range(of: parent, cursor: &cursor) else { return .empty }
        return LookupSnapshot(childIDs: childIDs.slice(range), indexes: indexes[range])
    }

    /// Moves `cursor` past `parent`'s rows without copying them, for a parent whose snapshot is
    /// kept from before: the next parent is then still found by one comparison.
    func skip(_ parent: QSAnyID, cursor: inout Int) {
        _ = runs.range(of: parent, cursor: &cursor)
    }

    /// Every child named, once each, in the order first named (see ``DistinctChildren``).
    var distinctChildren: DistinctChildren {
        DistinctChildren(childIDs)
    }
}
