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

/// Lookup rows read for many parents, grouped by parent. The rows arrive ordered by parent, so
/// each parent's rows are gathered in place and filed once.
struct LookupRows {
    private(set) var byParent: [QSAnyID: LookupSnapshot] = [:]
    private var currentParent: QSAnyID?
    private var current = LookupSnapshot.empty
    private var rowCount = 0

    mutating func append(parent: QSAnyID, child: QSAnyID, index: Int64) {
        if parent != currentParent { finishParent(next: parent) }
        current.childIDs.append(child)
        current.indexes.append(index)
        rowCount += 1
    }

    /// Files the last parent's rows; call once all rows are appended.
    mutating func finish() {
        finishParent(next: nil)
    }

    private mutating func finishParent(next: QSAnyID?) {
        if let currentParent { byParent[currentParent] = current }
        currentParent = next
        current = .empty
    }

    /// Every child named, once each.
    var distinctChildren: [QSAnyID] {
        var seen = Set<QSAnyID>(minimumCapacity: rowCount)
        var children: [QSAnyID] = []
        for lookup in byParent.values {
            for child in lookup.childIDs where seen.insert(child).inserted { children.append(child) }
        }
        return children
    }

    var idsByParent: [QSAnyID: [QSAnyID]] { byParent.mapValues(\.childIDs) }
}
