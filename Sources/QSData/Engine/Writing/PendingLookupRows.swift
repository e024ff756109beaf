/// Lookup rows waiting to be inserted: (parent, child, order value), in the order they were added.
///
/// They go in with `INSERT … VALUES (?, ?, ?), (?, ?, ?), …` statements of many rows. Each
/// statement run costs SQLite a few thousand instructions whatever it writes (starting and ending
/// its program and its statement journal), so a save of 20,000 notes with two tags each, which
/// inserts 40,000 lookup rows, runs a few hundred statements for them instead of 40,000.
struct PendingLookupRows {
    /// The most rows one statement inserts: 384 parameters, far below SQLite's limit.
    static let largestInsert = 128

    private struct Row {
        let parent: SQLValue
        let child: SQLValue
        let index: Int64
    }

    private var rows: [Row] = []

    var count: Int { rows.count }
    var isEmpty: Bool { rows.isEmpty }

    /// Adds `lookupRows` of `parent`.
    mutating func append(_ lookupRows: some Collection<LookupDiff.Row>, parent: SQLValue) {
        for row in lookupRows {
            rows.append(Row(parent: parent, child: row.child.sqlValue, index: row.index))
        }
    }

    /// Adds the rows of a parent that has none yet: `childIDs` in order, numbered as
    /// ``LookupDiff/fresh(_:)`` numbers them.
    mutating func append(ofNewParent childIDs: ChildIDs, parent: SQLValue) {
        // A loop of its own rather than a lazy list of rows: each parent of a large save comes here.
        for (offset, child) in childIDs.enumerated() {
            rows.append(Row(parent: parent, child: child.sqlValue, index: LookupDiff.freshIndex(at: offset)))
        }
    }

    /// Binds the rows at `positions` to an insert (see ``RelationshipSQL/insert(rows:)``), and
    /// NULL to the `skippedRows` after them, which the insert leaves out.
    func bind(_ positions: Range<Int>, to statement: SQLiteStatement, skippedRows: Int) throws {
        var parameter: Int32 = 1
        for position in positions {
            let row = rows[position]
            try statement.bind(row.parent, at: parameter)
            try statement.bind(row.child, at: parameter + 1)
            try statement.bind(.integer(row.index), at: parameter + 2)
            parameter += 3
        }
        // A statement keeps its bindings from one run to the next: the skipped rows are bound afresh.
        for _ in 0 ..< skippedRows * 3 {
            try statement.bind(.null, at: parameter)
            parameter += 1
        }
    }

    mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
    }
}
