/// What the database holds for one row of a type, as the store last read or wrote it.
///
/// The store keeps one for every instance it holds (uniqued instances while alive, permanently
/// cached ones), in the instance's cache entry, so that saving compares against it and writes
/// only what differs. It is touched only on the database queue, inside the write that makes it
/// true; a write that rolls back drops the snapshots it touched.
struct RowSnapshot: Sendable {
    /// The columns in the layout's order, as the type encodes them.
    var values: [SQLValue]
    /// Per relationship, in the model's order: its lookup rows, or nil when not known.
    var lookups: [LookupSnapshot?]
}

/// One parent's lookup rows for one relationship: the children in order, with their order values.
struct LookupSnapshot: Sendable, Equatable {
    var childIDs: [QSAnyID]
    var indexes: [Int64]

    static let empty = LookupSnapshot(childIDs: [], indexes: [])
}

/// Lookup rows read for many parents, grouped by parent in order.
struct LookupRows {
    private(set) var byParent: [QSAnyID: LookupSnapshot] = [:]
    /// Every child named, once each, in first-seen order.
    private(set) var distinctChildren: [QSAnyID] = []
    private var seen: Set<QSAnyID> = []

    mutating func append(parent: QSAnyID, child: QSAnyID, index: Int64) {
        byParent[parent, default: .empty].childIDs.append(child)
        byParent[parent, default: .empty].indexes.append(index)
        if seen.insert(child).inserted { distinctChildren.append(child) }
    }

    var idsByParent: [QSAnyID: [QSAnyID]] { byParent.mapValues(\.childIDs) }
}
