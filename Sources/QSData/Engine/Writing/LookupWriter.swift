/// Writes one relationship's lookup rows for the parents of a save, with its statements
/// prepared once per save rather than once per parent.
///
/// Each parent's rows are changed by the fewest rows ``LookupDiff`` finds: one row written to
/// add or move a child. Deletes and moves run at once; inserted rows wait in ``pending`` until
/// ``writePending()``, which the save calls once per group of rows, and go in together (see
/// ``ManyRowStatements``): a large save inserts most of its lookup rows this way.
final class LookupWriter {
    /// Up to this many rows of one parent are deleted one statement each; more in one statement.
    static let deletesOneByOne = 4

    private let connection: SQLiteConnection
    private let sql: RelationshipSQL
    // Touched for every row or instance, by one thread, one access at a time: unchecked, since
    // Swift's dynamic exclusivity check cost more than most of the accesses.
    /// Rows to insert, waiting for ``writePending()``.
    @exclusivity(unchecked) private var pending = PendingLookupRows()
    private let inserts: ManyRowStatements

    init(sql: RelationshipSQL, connection: SQLiteConnection) {
        self.connection = connection
        self.sql = sql
        inserts = ManyRowStatements(parametersPerRow: 3, connection: connection, sql: sql.insert(rows:))
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
            pending.append(diff.result.rows, parent: parent)
        case .rewrite:
            try connection.execute(sql.deleteForOneParent, [parent])
            pending.append(diff.result.rows, parent: parent)
        case .edit(let deletes, let inserts, let moves):
            // The inserted rows go in after the moves, when every row already there holds its
            // final order value.
            try delete(deletes, parent: parent)
            pending.append(inserts, parent: parent)
            for move in moves {
                try connection.execute(sql.moveOne, [.integer(move.index), parent, move.child.sqlValue])
            }
        case .editInOnePlace(let deletes, let inserted):
            try delete(deletes, parent: parent)
            pending.append(diff.result.rows[inserted], parent: parent)
        }
        return (diff.result, true)
    }

    /// Adds the lookup rows of a parent that has none yet to those waiting: `childIDs` in order,
    /// numbered as ``LookupDiff/fresh(_:)`` numbers them.
    func insertRows(ofNewParent childIDs: ChildIDs, parentID: QSAnyID) {
        pending.append(ofNewParent: childIDs, parent: parentID.sqlValue)
    }

    /// Inserts the rows waiting.
    func writePending() throws {
        defer { pending.removeAll() }
        try inserts.run(count: pending.count) { statement, rows in try pending.bind(rows, to: statement) }
    }

    private func delete(_ children: [QSAnyID], parent: SQLValue) throws {
        if children.count > Self.deletesOneByOne {
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
}

/// The lookup writers of one type's relationships, by position in the model's order, each
/// prepared the first time a save needs it.
final class LookupWriters {
    private let relationships: [RelationshipSQL]
    private let connection: SQLiteConnection
    @exclusivity(unchecked) private var writers: [LookupWriter?]

    init(_ sql: TableSQL, connection: SQLiteConnection) {
        relationships = sql.relationships
        self.connection = connection
        writers = Array(repeating: nil, count: relationships.count)
    }

    /// Adds every lookup row of a parent just inserted to those waiting: those of each
    /// relationship its object set, as its encoded `lookups` list them.
    func insertRows(of lookups: RowLookups, parentID: QSAnyID) {
        for position in lookups.indices {
            // Only the children are read: a new parent's order values are known.
            guard let childIDs = lookups[position].rows?.childIDs else { continue }
            writer(at: position).insertRows(ofNewParent: childIDs, parentID: parentID)
        }
    }

    /// Inserts the rows waiting in every relationship's writer.
    func writePending() throws {
        for case let writer? in writers {
            try writer.writePending()
        }
    }

    /// The writer of the relationship at `position`.
    func writer(at position: Int) -> LookupWriter {
        if let writer = writers[position] { return writer }
        let writer = LookupWriter(sql: relationships[position], connection: connection)
        writers[position] = writer
        return writer
    }
}
