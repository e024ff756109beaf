/// The rows a save encoded for one type, as they travel to the database queue: every row's
/// column values in one list, row after row, rather than a list per row.
///
/// A save of many objects then makes no allocation per object on the main actor, and the queue
/// frees none per row once it is done: glibc's allocator is slow at memory one thread allocates
/// and another frees. The queue copies out, into a snapshot of its own, only the values of a row
/// that is new or changed; an unchanged row costs a comparison.
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
    /// Per row, for a type with relationships, the children of each relationship the object set
    /// (see ``LookupSlot``); empty for a type without relationships.
    private var lookups: [[LookupSlot]] = []
    private let hasRelationships: Bool

    init(width: Int, hasRelationships: Bool) {
        self.width = width
        self.hasRelationships = hasRelationships
    }

    var indices: Range<Int> { 0 ..< count }

    /// Starts a row with the values `encoder` finished; returns the relationships it set. The
    /// row is added by ``endRow(lookups:)``. The first row, when no room was made for more, takes
    /// the encoder's list itself (see ``QSRowEncoder/finish(handingValuesTo:)``): a save of one
    /// object makes no list for its rows.
    mutating func appendValues(of encoder: inout QSRowEncoder) throws -> EncodedRelationships {
        if values.capacity == 0 { return try encoder.finish(handingValuesTo: &values) }
        return try encoder.finish(appendingValuesTo: &values)
    }

    /// Adds the row whose values were appended last, with `rowLookups`, its relationships'
    /// children (one slot per relationship of the type).
    mutating func endRow(lookups rowLookups: [LookupSlot]) {
        count += 1
        if !ends.isEmpty { ends.append(values.count) }
        if hasRelationships { lookups.append(rowLookups) }
    }

    /// Adds the row of a held instance that marked nothing, without values: nothing is written
    /// for it (see ``SaveBatch/skipsUnchanged``).
    mutating func appendUnencoded() {
        if ends.isEmpty { ends = (0 ..< count).map { ($0 + 1) * width } }
        ends.append(values.count)
        count += 1
        if hasRelationships { lookups.append([]) }
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
        if hasRelationships { lookups.reserveCapacity(rows) }
    }

    /// The values of the row at `row`; empty for a row left unencoded.
    func values(at row: Int) -> RowValues {
        guard !ends.isEmpty else { return RowValues(rows: values, range: row * width ..< (row + 1) * width) }
        return RowValues(rows: values, range: (row == 0 ? 0 : ends[row - 1]) ..< ends[row])
    }

    /// Whether the row at `row` was left unencoded. Every encoded row holds at least its
    /// uniqueID, so only such a row has no values.
    func isUnencoded(_ row: Int) -> Bool {
        !ends.isEmpty && ends[row] == (row == 0 ? 0 : ends[row - 1])
    }

    /// The children of each relationship the row's object set; empty for a type without any.
    func lookups(at row: Int) -> [LookupSlot] {
        hasRelationships ? lookups[row] : []
    }
}

/// One encoded row's column values, in the layout's order, counted from 0: a view into the list
/// of its group (see ``EncodedRows``).
struct RowValues: RandomAccessCollection {
    private let rows: [SQLValue]
    private let range: Range<Int>

    init(rows: [SQLValue], range: Range<Int>) {
        self.rows = rows
        self.range = range
    }

    /// A whole list of values, as a row.
    init(_ values: [SQLValue]) {
        self.init(rows: values, range: values.indices)
    }

    var startIndex: Int { 0 }

    var endIndex: Int { range.count }

    subscript(position: Int) -> SQLValue {
        rows[range.lowerBound + position]
    }

    /// The values in a list of their own, for a snapshot: the group's list itself when the row is
    /// all of it (a save of one object), a copy otherwise.
    var array: [SQLValue] {
        range == rows.indices ? rows : Array(rows[range])
    }
}
