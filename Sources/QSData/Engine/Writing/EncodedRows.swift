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
    /// Per row, where its values end in `values`: they begin where the previous row's end. A row
    /// left unencoded (see ``appendUnencoded()``) has none.
    private var ends: [Int] = []
    /// Per row, for a type with relationships, the children of each relationship the object set
    /// (see ``LookupSlot``); empty for a type without relationships.
    private var lookups: [[LookupSlot]] = []
    private let hasRelationships: Bool

    init(hasRelationships: Bool) {
        self.hasRelationships = hasRelationships
    }

    var count: Int { ends.count }

    var indices: Range<Int> { 0 ..< count }

    /// Starts a row with the values `encoder` finished (see
    /// ``QSRowEncoder/finish(appendingValuesTo:)``); returns the relationships it set. The row
    /// is added by ``endRow(lookups:)``.
    mutating func appendValues(of encoder: inout QSRowEncoder) throws -> EncodedRelationships {
        try encoder.finish(appendingValuesTo: &values)
    }

    /// Adds the row whose values were appended last, with `rowLookups`, its relationships'
    /// children (one slot per relationship of the type).
    mutating func endRow(lookups rowLookups: [LookupSlot]) {
        ends.append(values.count)
        if hasRelationships { lookups.append(rowLookups) }
    }

    /// Adds the row of a held instance that marked nothing, without values: nothing is written
    /// for it (see ``SaveBatch/skipsUnchanged``).
    mutating func appendUnencoded() {
        ends.append(values.count)
        if hasRelationships { lookups.append([]) }
    }

    /// Forgets every row.
    mutating func removeAll() {
        values = []
        ends = []
        lookups = []
    }

    /// Makes room for `rows` rows in all, of `width` columns each.
    mutating func reserveCapacity(rows: Int, width: Int) {
        ends.reserveCapacity(rows)
        values.reserveCapacity(rows * width)
    }

    /// The values of the row at `row`; empty for a row left unencoded.
    func values(at row: Int) -> RowValues {
        RowValues(rows: values, range: (row == 0 ? 0 : ends[row - 1]) ..< ends[row])
    }

    /// Whether the row at `row` was left unencoded. Every encoded row holds at least its
    /// uniqueID, so only such a row has no values.
    func isUnencoded(_ row: Int) -> Bool {
        ends[row] == (row == 0 ? 0 : ends[row - 1])
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
