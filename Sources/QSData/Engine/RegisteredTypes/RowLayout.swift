/// The columns of one object type, in the order the store selects and inserts them.
///
/// Column 0 is always `uniqueID`. Built once per type at registration; immutable afterwards, but
/// for the order in which saves write the columns, learned by the first.
@usableFromInline
final class RowLayout: Sendable {
    @usableFromInline let typeName: String
    @usableFromInline let names: [String]
    @usableFromInline let types: [QSPropertyType]
    let relationshipNames: [String]
    private let indexByName: [String: Int]
    /// The columns in the order the type's `encode(to:)` writes them, as its saves learned it
    /// (see ``QSRowEncoder/followSavedWriteOrder()``).
    let savedWriteOrder = LockedState<[LearnedColumn]>([])

    init(description: QSObjectDescription) {
        typeName = description.name
        names = description.properties.map(\.name)
        types = description.properties.map(\.type)
        relationshipNames = description.relationships.map(\.name)
        indexByName = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }

    /// The position of the column named `name`, or nil when the type has no such property.
    ///
    /// A type of a few columns is looked through first for a name with the same two words (one
    /// written as a literal, or any of up to 15 bytes), which costs less than hashing it.
    @usableFromInline func index(of name: String) -> Int? {
        #if _pointerBitWidth(_64)
        if names.count <= Self.columnsLookedThrough {
            let bits = unsafeBitCast(name, to: (UInt64, UInt64).self)
            for position in names.indices where unsafeBitCast(names[position], to: (UInt64, UInt64).self) == bits {
                return position
            }
        }
        #endif
        return indexByName[name]
    }

    /// Up to how many columns ``index(of:)`` looks through before hashing.
    private static let columnsLookedThrough = 16

    var count: Int { names.count }

    /// The position of the relationship named `name` in ``relationshipNames``, or nil.
    func relationshipPosition(of name: String) -> Int? {
        relationshipNames.firstIndex { isSameName($0, name) }
    }
}

/// Where an encoder found a column, remembered so the next object finds it without a search.
@usableFromInline
struct LearnedColumn {
    @usableFromInline let name: String
    @usableFromInline let index: Int

    @usableFromInline init(name: String, index: Int) {
        self.name = name
        self.index = index
    }
}

/// The order in which a type reads its columns, learned on the first row and followed after
/// that, and where the current row's reads have got to.
///
/// Kept in memory of its own rather than an array, so that following it costs no reference
/// counting: it is on the path of every column a fetch reads.
@usableFromInline
struct ReadState {
    /// Each read of the first row: the name asked for, and the column it found.
    @usableFromInline let names: UnsafeMutablePointer<String>
    @usableFromInline let indexes: UnsafeMutablePointer<Int>
    @usableFromInline var learnedCount = 0
    @usableFromInline var position = 0
    /// How many reads a row learns; a type that reads more (a column twice) searches for the rest.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        names = .allocate(capacity: capacity)
        indexes = .allocate(capacity: capacity)
    }

    /// When the next read in the learned order is of `name`, its column, and moves past it.
    @inlinable @inline(__always) mutating func nextLearnedIndex(ifNamed name: String) -> Int? {
        guard position < learnedCount, isSameName(names[position], name) else { return nil }
        position += 1
        return indexes[position - 1]
    }

    /// Adds a read to the learned order, when it is the next one.
    mutating func learn(_ name: String, at index: Int) {
        guard position == learnedCount, learnedCount < capacity else { return }
        (names + learnedCount).initialize(to: name)
        indexes[learnedCount] = index
        learnedCount += 1
        position += 1
    }

    /// Frees the learned order; call once, when the row goes.
    func release() {
        names.deinitialize(count: learnedCount)
        names.deallocate()
        indexes.deallocate()
    }
}

/// Whether a learned column name and the name a read or write asks for are equal, first by their
/// bits: a type names each column by the same string literal on every row, so this is nearly
/// always answered without looking at characters or touching reference counts. (Equal bits are
/// always the same string: the learned name is kept alive, so its storage cannot be reused.)
/// A `String` is two 64-bit words only where pointers are 64 bits; elsewhere (watchOS on
/// arm64_32) it is 12 bytes, and the names are compared as strings.
@inlinable @inline(__always)
func isSameName(_ learned: String, _ name: String) -> Bool {
    #if _pointerBitWidth(_64)
    let learnedBits = unsafeBitCast(learned, to: (UInt64, UInt64).self)
    let nameBits = unsafeBitCast(name, to: (UInt64, UInt64).self)
    return learnedBits == nameBits || learned == name
    #else
    return learned == name
    #endif
}
