/// The rows one save writes: each object encoded once, children before their parents.
struct SaveBatch {
    struct Key: Hashable {
        let typeName: String
        let id: QSAnyID
    }

    private(set) var snapshots: [ObjectSnapshot?] = []
    private var positions: [Key: Int] = [:]
    /// One encoder per type, reused so each learns its type's column order once.
    var encoders: [String: QSRowEncoder] = [:]

    /// Claims a place for the object; false when the batch already has (or is building) it.
    mutating func reserve(_ key: Key) -> Bool {
        guard positions[key] == nil else { return false }
        positions[key] = snapshots.count
        snapshots.append(nil)
        return true
    }

    mutating func fill(_ key: Key, with snapshot: ObjectSnapshot) {
        if let position = positions[key] {
            snapshots[position] = snapshot
        }
    }

    /// The finished snapshots, in writing order.
    var finished: [ObjectSnapshot] { snapshots.compactMap { $0 } }
}

/// One object's values as they will be written: Sendable, so it can travel to the queue.
struct ObjectSnapshot: Sendable {
    let binding: any AnyTypeBinding
    let id: QSAnyID
    let values: [SQLValue]
    let relationships: [RelationshipSnapshot]
}

/// A parent's children for one relationship, as uniqueIDs in order, each once.
struct RelationshipSnapshot: Sendable {
    let name: String
    let childIDs: [QSAnyID]

    /// Keeps the first position of a child listed twice: a lookup table has one row per pair.
    init(name: String, childIDs: [QSAnyID]) {
        var seen: Set<QSAnyID> = []
        self.name = name
        self.childIDs = childIDs.filter { seen.insert($0).inserted }
    }
}
