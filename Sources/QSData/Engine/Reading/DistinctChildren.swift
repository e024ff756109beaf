/// The children lookup rows name, each once, and which of them each row names: one hash per
/// row finds both, so the children made for them are listed per row without looking them up again.
struct DistinctChildren {
    /// Each child once, in the order first named.
    private(set) var ids: [QSAnyID] = []
    /// Per lookup row, the position in `ids` of its child.
    private(set) var positionOfRow: [Int] = []
    private var positionOfID: [QSAnyID: Int]

    init(_ childIDs: ChildIDs) {
        positionOfID = Dictionary(minimumCapacity: childIDs.count)
        positionOfRow.reserveCapacity(childIDs.count)
        for child in childIDs {
            let next = ids.count
            let position = positionOfID.value(for: child, insertingIfMissing: next)
            if position == next { ids.append(child) }
            positionOfRow.append(position)
        }
    }

    /// The position in `ids` of `id`, or nil when no row names it.
    func position(of id: QSAnyID) -> Int? {
        positionOfID[id]
    }
}

extension Dictionary {
    /// The value for `key`, stored first as `missing` when there is none: one hash either way.
    mutating func value(for key: Key, insertingIfMissing missing: @autoclosure () -> Value) -> Value {
        func read(_ value: inout Value) -> Value { value }
        return read(&self[key, default: missing()])
    }
}
