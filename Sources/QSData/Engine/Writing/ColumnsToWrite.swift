/// Which columns a save writes for each row of a group that the database queue has a snapshot of.
///
/// - An instance that marks its changes says which: the columns it marked, or every column when
///   its snapshot no longer holds (it lost it to another instance of the row, or to a rollback).
/// - Otherwise the snapshot keeps a hash of the row as the instance showed it (see ``RowHash``).
///   An encoded row that hashes the same changed nothing: no column. One that hashes otherwise
///   is compared with the row as the database holds it, read for all such rows of the group in
///   one statement ahead of writing them (one at a time when an ID comes twice in the group, so
///   that its second save sees what the first wrote); ``ColumnsTheAppChanged`` says which of the
///   columns that differ the app changed.
struct ColumnsToWrite {
    /// What to write for one row: the columns, the row as the database held it when it had to be
    /// read, and the encoded row's hash when it was worked out.
    struct Answer {
        let columns: [Int]
        var current: [SQLValue]? = nil
        var encodedHash: RowHash? = nil
    }

    /// How an encoded row compares with its snapshot's hash.
    private enum Comparison {
        case unchanged
        /// The row must be read; `shown` is the hash of the row as the instance showed it (nil
        /// when the snapshot no longer says: then every column that differs is the app's), and
        /// `encoded` the encoded row's, when worked out.
        case differs(shown: RowHash?, encoded: RowHash?)
    }

    private let binding: any AnyTypeBinding
    private let statements: RowStatements
    private let context: QueueContext
    /// The comparisons worked out ahead, by offset in the group, and the rows read for them: one
    /// alone, or many by uniqueID.
    private var comparedAhead: [Comparison?] = []
    private var rowRead: (id: QSAnyID, values: [SQLValue])?
    private var rowsRead: [QSAnyID: [SQLValue]] = [:]

    init(binding: any AnyTypeBinding, statements: RowStatements, context: QueueContext) {
        self.binding = binding
        self.statements = statements
        self.context = context
    }

    /// Compares each row of `group` with the snapshot `snapshotAt` gives for its offset (none: the
    /// row is not compared) ahead of the group's writes, and reads in one statement the rows that
    /// differ. Only for a type whose instances don't mark their changes. Each row is hashed where
    /// the group keeps it, with no list of its own.
    mutating func compareAhead(_ group: SaveGroup, snapshotAt: (Int) -> RowSnapshot?) throws {
        guard !binding.tracksChanges else { return }
        let rows = group.rows
        comparedAhead = Array(repeating: nil, count: rows.count)
        var toRead: [QSAnyID] = []
        for offset in rows.indices where !group.isUnchanged(offset) && !group.isReachedThroughParent(offset) {
            guard let snapshot = snapshotAt(offset) else { continue }
            let comparison = Self.compare(rows.valuesHash(at: offset), with: snapshot)
            comparedAhead[offset] = comparison
            if case .differs = comparison { toRead.append(group.ids[offset]) }
        }
        if toRead.count == 1 {
            rowRead = try readRow(toRead[0]).map { (toRead[0], $0) }
        } else if !toRead.isEmpty {
            let statement = try context.connection.statement(statements.sql.selectByIDs)
            for row in try binding.rowsAsEncoded(statement, IDList.json(toRead), in: context) { rowsRead[row.id] = row.values }
        }
    }

    /// Whether the row at `offset` was compared ahead and found unchanged: no column to write.
    func isUnchangedAhead(_ offset: Int) -> Bool {
        guard offset < comparedAhead.count, case .unchanged = comparedAhead[offset] else { return false }
        return true
    }

    /// The columns to write for the row at `offset` with these encoded `values`, compared with
    /// `snapshot` (the row as its instance showed it), or `marked` by its instance.
    mutating func answer(at offset: Int, values: RowValues, id: QSAnyID, snapshot: RowSnapshot, marked: [Int]?) throws -> Answer {
        if let marked { return Answer(columns: marked) }
        if binding.tracksChanges { return Answer(columns: Array(values.indices)) }
        let ahead = offset < comparedAhead.count ? comparedAhead[offset] : nil
        guard case .differs(let shown, let encoded) = ahead ?? Self.compare(RowHash(of: values), with: snapshot) else {
            return Answer(columns: [])
        }
        guard let current = try currentRow(id, readAhead: ahead != nil) else {
            // The row is gone (deleted by SQL outside the store): every column, for an update
            // that finds no row, and then an insert.
            return Answer(columns: Array(values.indices), encodedHash: encoded)
        }
        guard let shown else {
            return Answer(columns: values.indices.filter { values[$0] != current[$0] }, current: current, encodedHash: encoded)
        }
        return Answer(columns: ColumnsTheAppChanged.find(in: values, current: current, shown: shown), current: current, encodedHash: encoded)
    }

    private static func compare(_ encodedHash: @autoclosure () -> RowHash, with snapshot: RowSnapshot) -> Comparison {
        guard let shown = snapshot.valuesHash else { return .differs(shown: nil, encoded: nil) }
        let encoded = encodedHash()
        return encoded == shown ? .unchanged : .differs(shown: shown, encoded: encoded)
    }

    private func currentRow(_ id: QSAnyID, readAhead: Bool) throws -> [SQLValue]? {
        guard readAhead else { return try readRow(id) }
        if let rowRead, rowRead.id == id { return rowRead.values }
        return rowsRead[id]
    }

    private func readRow(_ id: QSAnyID) throws -> [SQLValue]? {
        try binding.rowsAsEncoded(statements.selectByID, id.sqlValue, in: context).first?.values
    }
}
