/// The rows a save encoded for one type, as they travel to the database queue: every row's
/// column values in one list, and every row's lookup slots in another, row after row, rather
/// than lists per row.
///
/// A save of many objects then makes no allocation per object on the main actor, and the queue
/// frees none per row once it is done: glibc's allocator is slow at memory one thread allocates
/// and another frees. The queue keeps, as a snapshot of its own, only the hash of a row
/// that is new or changed; an unchanged row costs hashing its values.
struct EncodedRows: Sendable {
    /// Every encoded row's values, row after row.
    private var values: [SQLValue] = []
    /// How many values an encoded row has: its type's columns.
    private let width: Int
    private(set) var count = 0
    /// Per row, where its values end in `values`, made only once a row is left unencoded (see
    /// ``appendUnencoded()``), which has none. Until then every row has `width` values, and
    /// a save needs no list for where they end.
    private var ends: [Int] = []
    /// Per row, the children of each relationship its object set (see ``LookupSlot``): a slot
    /// per relationship of the type, row after row, as the values are.
    private var lookups: [LookupSlot] = []
    /// How many relationships the type has: each row's slots in `lookups`.
    private let relationshipCount: Int

    init(width: Int, relationshipCount: Int) {
        self.width = width
        self.relationshipCount = relationshipCount
    }

    var indices: Range<Int> { 0 ..< count }

    /// Starts a row with the values `encoder` finished; returns the relationships it set. The
    /// row is added by ``endRow()``. The first row, when no room was made for more, takes
    /// the encoder's list itself (see ``QSRowEncoder/finish(handingValuesTo:)``): a save of one
    /// object makes no list for its rows.
    mutating func appendValues(of encoder: inout QSRowEncoder) throws -> EncodedRelationships {
        if values.capacity == 0 { return try encoder.finish(handingValuesTo: &values) }
        return try encoder.finish(appendingValuesTo: &values)
    }

    /// Adds the row whose values were appended last, its relationships' children unknown until
    /// ``setLookup(_:at:ofRow:)`` sets them.
    mutating func endRow() {
        count += 1
        if !ends.isEmpty { ends.append(values.count) }
        appendUnknownLookups()
    }

    /// Sets the children the object of the row at `row` set for the relationship at `position`.
    mutating func setLookup(_ lookup: LookupSnapshot, at position: Int, ofRow row: Int) {
        lookups[row * relationshipCount + position].rows = lookup
    }

    /// Adds the row of a held instance that marked nothing, without values: nothing is written
    /// for it (see ``SaveBatch/skipsUnchanged``).
    mutating func appendUnencoded() {
        if ends.isEmpty { ends = (0 ..< count).map { ($0 + 1) * width } }
        ends.append(values.count)
        count += 1
        appendUnknownLookups()
    }

    private mutating func appendUnknownLookups() {
        for _ in 0 ..< relationshipCount { lookups.append(.unknown) }
    }

    /// Forgets every row.
    mutating func removeAll() {
        values = []
        count = 0
        ends = []
        lookups = []
    }

    /// Makes room for `rows` rows in all. None is made for the values of a single row, which
    /// takes the encoder's list (see ``appendValues(of:)``).
    mutating func reserveCapacity(rows: Int) {
        if rows > 1 { values.reserveCapacity(rows * width) }
        if !ends.isEmpty { ends.reserveCapacity(rows) }
        if relationshipCount > 0 { lookups.reserveCapacity(rows * relationshipCount) }
    }

    /// The values of the row at `row`; empty for a row left unencoded.
    func values(at row: Int) -> RowValues {
        RowValues(values, range: rangeOfValues(at: row))
    }

    /// The hash of the values of the row at `row` (see ``RowHash``).
    func valuesHash(at row: Int) -> RowHash {
        let range = rangeOfValues(at: row)
        return values.withUnsafeBufferPointer { RowHash(of: $0[range]) }
    }

    private func rangeOfValues(at row: Int) -> Range<Int> {
        guard !ends.isEmpty else { return row * width ..< (row + 1) * width }
        return (row == 0 ? 0 : ends[row - 1]) ..< ends[row]
    }

    /// Whether the row at `row` was left unencoded. Every encoded row holds at least its
    /// uniqueID, so only such a row has no values.
    func isUnencoded(_ row: Int) -> Bool {
        !ends.isEmpty && ends[row] == (row == 0 ? 0 : ends[row - 1])
    }

    /// Whether the row's object set the children of none of its relationships.
    func setsNoChildren(at row: Int) -> Bool {
        relationshipCount == 0 || !lookups(at: row).contains(where: \.isKnown)
    }

    /// The children of each relationship the row's object set; empty for a type without any.
    func lookups(at row: Int) -> RowLookups {
        RowLookups(lookups, range: row * relationshipCount ..< (row + 1) * relationshipCount)
    }
}

/// One encoded row's column values, in the layout's order, counted from 0.
typealias RowValues = RowSlice<SQLValue>

/// One encoded row's lookup slots, one per relationship in the model's order, counted from 0.
typealias RowLookups = RowSlice<LookupSlot>

/// One row's part of a list its group keeps for all its rows (see ``EncodedRows``), counted from 0.
struct RowSlice<Element>: RandomAccessCollection {
    private let rows: [Element]
    private let range: Range<Int>

    init(_ rows: [Element], range: Range<Int>) {
        self.rows = rows
        self.range = range
    }

    /// A whole list, as a row.
    init(_ row: [Element]) {
        self.init(row, range: row.indices)
    }

    var startIndex: Int { 0 }

    var endIndex: Int { range.count }

    subscript(position: Int) -> Element {
        rows[range.lowerBound + position]
    }

    /// The row in a list of its own, for a snapshot: the group's list itself when the row is all
    /// of it (a save of one object), a copy otherwise.
    var array: [Element] {
        range == rows.indices ? rows : Array(rows[range])
    }
}
