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

/// Lookup rows read for many parents. The rows arrive ordered by parent, so they are kept as one
/// flat list, with where each parent's run of it lies: no array per parent is made unless asked for.
struct LookupRows {
    /// Every row's child, in the order read: each parent's children in order, parent after parent.
    private(set) var childIDs: [QSAnyID] = []
    private(set) var indexes: [Int64] = []
    private(set) var rangeByParent: [QSAnyID: Range<Int>] = [:]
    private var currentParent: QSAnyID?
    private var currentStart = 0

    mutating func append(parent: QSAnyID, child: QSAnyID, index: Int64) {
        if parent != currentParent { finishParent(next: parent) }
        childIDs.append(child)
        indexes.append(index)
    }

    /// Files the last parent's rows; call once all rows are appended.
    mutating func finish() {
        finishParent(next: nil)
    }

    private mutating func finishParent(next: QSAnyID?) {
        if let currentParent { rangeByParent[currentParent] = currentStart..<childIDs.count }
        currentParent = next
        currentStart = childIDs.count
    }

    /// One parent's rows, empty when it has none.
    func snapshot(of parent: QSAnyID) -> LookupSnapshot {
        guard let range = rangeByParent[parent] else { return .empty }
        return LookupSnapshot(childIDs: Array(childIDs[range]), indexes: Array(indexes[range]))
    }

    /// Every child named, once each, in the order first named.
    var distinctChildren: [QSAnyID] {
        var seen = Set<QSAnyID>(minimumCapacity: childIDs.count)
        return childIDs.filter { seen.insert($0).inserted }
    }
}
