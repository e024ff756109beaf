/// Lookup rows waiting to be inserted, many a statement (see ``ManyRowStatements``):
/// (parent, child, order value), in the order they were added.
struct PendingLookupRows {
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

    /// Binds the rows at `positions` to an insert's parameters, three a row.
    func bind(_ positions: Range<Int>, to statement: SQLiteStatement) throws {
        var parameter: Int32 = 1
        for position in positions {
            let row = rows[position]
            try statement.bind(row.parent, at: parameter)
            try statement.bind(row.child, at: parameter + 1)
            try statement.bind(.integer(row.index), at: parameter + 2)
            parameter += 3
        }
    }

    mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
    }
}
