/// A parent's children's uniqueIDs in order: what a save writes to the relationship's lookup
/// rows, and what a snapshot remembers of them.
///
/// Integer IDs, the usual kind, are kept as `Int64`s, sharing the storage of the app's
/// `QSRelated` when its child type has integer IDs. A parent of 1,000 children saved for one
/// added compares its list of IDs with the stored one and frees the older: a list of
/// `QSAnyID`s cost a check of each element's case to compare, copy or free it (about 100
/// instructions a child in all), where a list of `Int64`s compares as plain integers and is
/// freed whole. Text IDs are kept as `QSAnyID`s.
///
/// A collection of `QSAnyID`s counting from 0 (also when it is a slice of a longer list).
@usableFromInline
struct ChildIDs: RandomAccessCollection, Sendable, Equatable {
    @usableFromInline
    enum Storage: Sendable {
        case integers(ArraySlice<Int64>)
        case any(ArraySlice<QSAnyID>)
    }

    @usableFromInline private(set) var storage: Storage

    @inlinable
    init(_ storage: Storage) {
        self.storage = storage
    }

    static let empty = ChildIDs(.integers([]))

    /// `ids` as the store keeps them; an `[Int64]` is shared, not copied.
    @inlinable
    init<ID: QSUniqueID>(_ ids: [ID]) {
        if ID.self == Int64.self {
            // The same type, so reinterpreting the array costs nothing (a cast would copy it).
            storage = .integers(unsafeBitCast(ids, to: [Int64].self)[...])
        } else {
            storage = .any(ids.map(\.anyID)[...])
        }
    }

    @usableFromInline var startIndex: Int { 0 }

    @usableFromInline var endIndex: Int {
        switch storage {
        case .integers(let ids): return ids.count
        case .any(let ids): return ids.count
        }
    }

    @usableFromInline subscript(offset: Int) -> QSAnyID {
        switch storage {
        case .integers(let ids): return .integer(ids[ids.startIndex + offset])
        case .any(let ids): return ids[ids.startIndex + offset]
        }
    }

    /// The IDs at `offsets`, sharing this list's storage.
    func slice(_ offsets: Range<Int>) -> ChildIDs {
        switch storage {
        case .integers(let ids): return ChildIDs(.integers(ids[(ids.startIndex + offsets.lowerBound)..<(ids.startIndex + offsets.upperBound)]))
        case .any(let ids): return ChildIDs(.any(ids[(ids.startIndex + offsets.lowerBound)..<(ids.startIndex + offsets.upperBound)]))
        }
    }

    /// Every ID as a `QSAnyID`, for the rare list that mixes with the other kind.
    var anyIDs: ArraySlice<QSAnyID> {
        switch storage {
        case .integers(let ids): return ids.map { QSAnyID.integer($0) }[...]
        case .any(let ids): return ids
        }
    }

    /// The IDs of a child type whose uniqueIDs are `ID`; an ID of the other kind is left out.
    func typed<ID: QSUniqueID>(as type: ID.Type) -> [ID] {
        if ID.self == Int64.self, case .integers(let ids) = storage {
            return unsafeBitCast(Array(ids), to: [ID].self)
        }
        return compactMap { ID(anyID: $0) }
    }

    /// The list with each ID's repeats left out, first occurrences kept in order: a lookup table
    /// has one row per parent and child. The list itself when nothing repeats.
    var firstOccurrences: ChildIDs {
        switch storage {
        case .integers(let ids):
            guard Self.repeats(ids) else { return self }
            var seen = IntegerSet(capacity: ids.count)
            var kept: [Int64] = []
            kept.reserveCapacity(ids.count)
            for id in ids where seen.insert(id) { kept.append(id) }
            return ChildIDs(.integers(kept[...]))
        case .any(let ids):
            guard Self.repeats(ids) else { return self }
            var seen = Set<QSAnyID>(minimumCapacity: ids.count)  // sized once: growing it cost more than the inserts
            return ChildIDs(.any(ids.filter { seen.insert($0).inserted }[...]))
        }
    }

    /// Whether an integer comes more than once, found without hashing each through `Hasher`.
    private static func repeats(_ ids: ArraySlice<Int64>) -> Bool {
        if ids.count <= 8 { return repeatsAmongFew(ids) }
        var seen = IntegerSet(capacity: ids.count)
        for id in ids where !seen.insert(id) { return true }
        return false
    }

    private static func repeats(_ ids: ArraySlice<QSAnyID>) -> Bool {
        if ids.count <= 8 { return repeatsAmongFew(ids) }
        return Set(ids).count != ids.count
    }

    /// Most parents have a handful of children: comparing each with those before beats a set.
    private static func repeatsAmongFew<ID: Equatable>(_ ids: ArraySlice<ID>) -> Bool {
        ids.indices.contains { position in ids[..<position].contains(ids[position]) }
    }

    @usableFromInline
    static func == (lhs: ChildIDs, rhs: ChildIDs) -> Bool {
        if case .integers(let left) = lhs.storage, case .integers(let right) = rhs.storage { return left == right }
        return lhs.elementsEqual(rhs)
    }

    /// Builds a list one ID at a time, as integers until an ID is not one.
    struct Builder {
        private var integers: [Int64] = []
        /// Every ID so far, once one is not an integer; empty until then.
        private var others: [QSAnyID] = []

        mutating func append(_ id: QSAnyID) {
            if others.isEmpty, case .integer(let value) = id {
                integers.append(value)
                return
            }
            if others.isEmpty {
                others = integers.map { QSAnyID.integer($0) }
                integers = []
            }
            others.append(id)
        }

        var finished: ChildIDs {
            others.isEmpty ? ChildIDs(.integers(integers[...])) : ChildIDs(.any(others[...]))
        }
    }
}
