/// Writes one relationship's lookup rows for the parents of a save, with its statements
/// prepared once per save rather than once per parent.
///
/// Each parent's rows are changed by the fewest rows ``LookupDiff`` finds: one row written to
/// add or move a child. A handful of rows are written one statement each; more go in one
/// statement, passed as a JSON array.
final class LookupWriter {
    /// Up to this many rows are written one statement each.
    static let rowsPerStatement = 4

    private let connection: SQLiteConnection
    private let sql: RelationshipSQL
    private let insertStatement: SQLiteStatement

    init(sql: RelationshipSQL, connection: SQLiteConnection) throws {
        self.connection = connection
        self.sql = sql
        insertStatement = try connection.statement(sql.insert)
        insertStatement.reset()  // a statement from the connection's cache may have been left stepped
    }

    /// Makes the parent's lookup rows list `childIDs` in order, starting from `stored` (what
    /// the rows are known to be: none for a new parent; nil when unknown, to be read first).
    /// Returns the rows as they now are, and whether any changed.
    func write(_ childIDs: ChildIDs, parentID: QSAnyID, stored: LookupSnapshot?) throws -> (rows: LookupSnapshot, changed: Bool) {
        let parent = parentID.sqlValue
        let diff = LookupDiff(from: try stored ?? storedRows(of: parent), to: childIDs)
        switch diff.plan {
        case .unchanged:
            return (diff.result, false)
        case .insertAll:
            try insert(diff.result.rows, parent: parent)
        case .rewrite:
            try connection.execute(sql.deleteForOneParent, [parent])
            try insert(diff.result.rows, parent: parent)
        case .edit(let deletes, let inserts, let moves):
            try delete(deletes, parent: parent)
            try insert(inserts, parent: parent)
            for move in moves {
                try connection.execute(sql.moveOne, [.integer(move.index), parent, move.child.sqlValue])
            }
        }
        return (diff.result, true)
    }

    /// Writes the lookup rows of a parent that has none yet: `childIDs` in order, numbered as
    /// ``LookupDiff/fresh(_:)`` numbers them.
    func insertRows(ofNewParent childIDs: ChildIDs, parentID: QSAnyID) throws {
        let parent = parentID.sqlValue
        guard childIDs.count <= Self.rowsPerStatement else {
            let rows = childIDs.enumerated().map { LookupDiff.Row(child: $1, index: LookupDiff.freshIndex(at: $0)) }
            try connection.execute(sql.insertMany, [parent, Self.json(rows)])
            return
        }
        // A loop of its own rather than a lazy list of rows: each parent of a large save comes here.
        for (offset, child) in childIDs.enumerated() {
            try insertOne(parent: parent, child: child, index: LookupDiff.freshIndex(at: offset))
        }
    }

    private func insert(_ rows: some Collection<LookupDiff.Row>, parent: SQLValue) throws {
        guard rows.count <= Self.rowsPerStatement else {
            try connection.execute(sql.insertMany, [parent, Self.json(rows)])
            return
        }
        for row in rows {
            try insertOne(parent: parent, child: row.child, index: row.index)
        }
    }

    /// Inserts one row with the statement prepared once, and leaves the statement reset.
    private func insertOne(parent: SQLValue, child: QSAnyID, index: Int64) throws {
        defer { insertStatement.reset() }
        try insertStatement.bind(parent, at: 1)
        try insertStatement.bind(child.sqlValue, at: 2)
        try insertStatement.bind(.integer(index), at: 3)
        try insertStatement.step()
    }

    private func delete(_ children: [QSAnyID], parent: SQLValue) throws {
        if children.count > Self.rowsPerStatement {
            try connection.execute(sql.deleteManyOfOneParent, [parent, IDList.json(children)])
        } else {
            for child in children { try connection.execute(sql.deleteOne, [parent, child.sqlValue]) }
        }
    }

    private func storedRows(of parent: SQLValue) throws -> LookupSnapshot {
        let statement = try connection.statement(sql.rowsOfOneParent)
        try statement.bind([parent])
        defer { statement.reset() }
        var childIDs = ChildIDs.Builder()
        var indexes: [Int64] = []
        while try statement.step() {
            childIDs.append(QSAnyID(column: statement.value(at: 0)))
            indexes.append(statement.int64(at: 1))
        }
        return LookupSnapshot(childIDs: childIDs.finished, indexes: indexes[...])
    }

    /// `[[child, index], …]`, read back by ``RelationshipSQL/insertMany``.
    private static func json(_ rows: some Collection<LookupDiff.Row>) -> SQLValue {
        var json = JSONText(reservingCapacity: rows.count * 16 + 2)
        json.append("[")
        for (offset, row) in rows.enumerated() {
            if offset > 0 { json.append(",") }
            json.append("[")
            json.append(row.child)
            json.append(",")
            json.append(row.index)
            json.append("]")
        }
        json.append("]")
        return json.value
    }
}

/// The lookup writers of one type's relationships, by position in the model's order, each
/// prepared the first time a save needs it.
final class LookupWriters {
    private let relationships: [RelationshipSQL]
    private let connection: SQLiteConnection
    private var writers: [LookupWriter?]

    init(_ sql: TableSQL, connection: SQLiteConnection) {
        relationships = sql.relationships
        self.connection = connection
        writers = Array(repeating: nil, count: relationships.count)
    }

    /// Writes every lookup row of a parent just inserted: those of each relationship its
    /// object set, as the encoded `row` lists them.
    func insertRows(of row: RowSnapshot, parentID: QSAnyID) throws {
        for position in row.lookups.indices {
            // Only the children are read: a new parent's order values are known.
            guard let childIDs = row.lookups[position]?.childIDs else { continue }
            try writer(at: position).insertRows(ofNewParent: childIDs, parentID: parentID)
        }
    }

    /// The writer of the relationship at `position`.
    func writer(at position: Int) throws -> LookupWriter {
        if let writer = writers[position] { return writer }
        let writer = try LookupWriter(sql: relationships[position], connection: connection)
        writers[position] = writer
        return writer
    }
}
