/// The SQL text the store runs for one object type, built once at registration.
final class TableSQL: Sendable {
    let table: String
    let select: String
    /// The type's columns, quoted and separated by commas, in the layout's order.
    private let columnList: String
    let columnCount: Int
    /// The uniqueID column, quoted: the first of the layout.
    private let uniqueIDColumn: String
    let insert: String
    /// Updates the row only when a value differs; nil when the type has no column besides
    /// uniqueID, or is `immutable` (a saved row never changes, so saving again only inserts).
    let updateIfChanged: String?
    /// Each relationship's SQL, in the model's order.
    let relationships: [RelationshipSQL]
    /// Selects 1 when the row with the uniqueID `?1` exists.
    let rowExists: String
    /// Selects the row with the uniqueID `?1`, and the rows whose uniqueIDs a JSON array lists:
    /// what a save reads of the rows whose hash changed (see ``ColumnsToWrite``).
    let selectByID: String
    let selectByIDs: String
    /// The type's columns, quoted, in the layout's order.
    private let columns: [String]
    /// For each column in the layout's order, the update of that column alone by uniqueID (see
    /// ``updateByID(columnsAt:)``): made once, since the usual edit changes one property, and
    /// building its SQL was a tenth of such a save's cost.
    private let updateOneColumnByID: [String]

    init(description: QSObjectDescription) {
        let table = quoted(description.table)
        let columns = description.properties.map { quoted($0.name) }
        let uniqueID = columns[0]
        self.table = table
        columnList = columns.joined(separator: ", ")
        columnCount = columns.count
        uniqueIDColumn = uniqueID
        select = "SELECT \(columnList) FROM \(table)"
        let placeholders = columns.indices.map { "?\($0 + 1)" }
        insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", "))) ON CONFLICT(\(uniqueID)) DO NOTHING"
        let others = columns.indices.dropFirst()
        if others.isEmpty || description.immutable {
            updateIfChanged = nil
        } else {
            let assignments = others.map { "\(columns[$0]) = ?\($0 + 1)" }.joined(separator: ", ")
            let differences = others.map { "\(columns[$0]) IS NOT ?\($0 + 1)" }.joined(separator: " OR ")
            updateIfChanged = "UPDATE \(table) SET \(assignments) WHERE \(uniqueID) = ?1 AND (\(differences))"
        }
        rowExists = "SELECT 1 FROM \(table) WHERE \(uniqueID) = ?1"
        selectByID = select + " WHERE \(uniqueID) = ?1"
        selectByIDs = select + " WHERE " + Self.byIDs
        self.columns = columns
        updateOneColumnByID = columns.map { "UPDATE \(table) SET \($0) = ? WHERE \(uniqueID) = ?" }
        relationships = description.relationships.map {
            RelationshipSQL(relationship: $0, parentTable: table, parentUniqueID: uniqueID)
        }
    }

    /// Inserts `rows` rows, one parameter a column in the layout's order, skipping each whose
    /// uniqueID has a row already; when `returningIDs`, returns the uniqueIDs it inserted.
    /// `OR FAIL`, not the default `ABORT`: a statement of many rows that may abort halfway makes
    /// SQLite copy every page it changes to a statement journal first, to undo them; one that
    /// fails is part of a transaction that is rolled back whole anyway.
    func insertSkippingExisting(rows: Int, returningIDs: Bool) -> String {
        "INSERT OR FAIL INTO \(table) (\(columnList)) VALUES \(valuesPlaceholders(rows: rows, columns: columnCount))"
            + " ON CONFLICT(\(uniqueIDColumn)) DO NOTHING" + (returningIDs ? " RETURNING \(uniqueIDColumn)" : "")
    }

    /// ``select`` with more values selected after the type's columns.
    func select(adding extraColumns: [String]) -> String {
        guard !extraColumns.isEmpty else { return select }
        return "SELECT \(columnList), \(extraColumns.joined(separator: ", ")) FROM \(table)"
    }

    func delete(where condition: String) -> String {
        "DELETE FROM \(table) WHERE \(condition)"
    }

    func deleteReturningIDs(where condition: String) -> String {
        "DELETE FROM \(table) WHERE \(condition) RETURNING \(quoted("uniqueID"))"
    }

    /// Updates the columns at `positions` in the layout of one row: their values are bound in
    /// that order, then the row's uniqueID.
    func updateByID(columnsAt positions: [Int]) -> String {
        precondition(!positions.isEmpty, "an update sets at least one column")
        if positions.count == 1 { return updateOneColumnByID[positions[0]] }
        let assignments = positions.map { "\(columns[$0]) = ?" }.joined(separator: ", ")
        return "UPDATE \(table) SET \(assignments) WHERE \(uniqueIDColumn) = ?"
    }

    func update(columns: [String], where condition: String) -> String {
        let assignments = columns.map { "\(quoted($0)) = ?" }.joined(separator: ", ")
        return "UPDATE \(table) SET \(assignments) WHERE \(condition)"
    }

    func updateReturningIDs(columns: [String], where condition: String) -> String {
        update(columns: columns, where: condition) + " RETURNING \(quoted("uniqueID"))"
    }

    static let byIDs = "\(quoted("uniqueID")) IN (\(IDList.subquery))"
}

/// The SQL for one relationship's lookup table.
struct RelationshipSQL: Sendable {
    let parentTable: String
    let parentUniqueID: String
    let lookupTable: String
    let parent: String
    let child: String
    let index: String

    init(relationship: QSRelationshipDescription, parentTable: String, parentUniqueID: String) {
        self.parentTable = parentTable
        self.parentUniqueID = parentUniqueID
        lookupTable = quoted(relationship.table)
        parent = quoted(relationship.parentIDColumn)
        child = quoted(relationship.childIDColumn)
        index = quoted(relationship.indexColumn)
    }

    /// The (parent, child, index) rows, in order, of the parents the query `tail` selects.
    func pairs(parentsWhere tail: String) -> String {
        "SELECT \(parent), \(child), \(index) FROM \(lookupTable) WHERE \(parent) IN (SELECT \(parentUniqueID) FROM \(parentTable)\(tail)) ORDER BY \(parent), \(index)"
    }

    /// One parent's (child, index) rows in order.
    var rowsOfOneParent: String {
        "SELECT \(child), \(index) FROM \(lookupTable) WHERE \(parent) = ? ORDER BY \(index)"
    }

    /// Inserts `rows` (parent, child, index) rows, three parameters each, `OR FAIL` as
    /// ``TableSQL/insert(rows:)`` explains.
    func insert(rows: Int) -> String {
        "INSERT OR FAIL INTO \(lookupTable) (\(parent), \(child), \(index)) VALUES \(valuesPlaceholders(rows: rows, columns: 3))"
    }

    var moveOne: String {
        "UPDATE \(lookupTable) SET \(index) = ? WHERE \(parent) = ? AND \(child) = ?"
    }

    var deleteOne: String {
        "DELETE FROM \(lookupTable) WHERE \(parent) = ? AND \(child) = ?"
    }

    var deleteManyOfOneParent: String {
        "DELETE FROM \(lookupTable) WHERE \(parent) = ? AND \(child) IN (\(IDList.subquery))"
    }

    var deleteForOneParent: String {
        "DELETE FROM \(lookupTable) WHERE \(parent) = ?"
    }

    var deleteForParents: String {
        "DELETE FROM \(lookupTable) WHERE \(parent) IN (\(IDList.subquery))"
    }
}

/// `(?, ?, ?), (?, ?, ?)`: `rows` rows of `columns` parameters, for a `VALUES` list.
func valuesPlaceholders(rows: Int, columns: Int) -> String {
    let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
    return Array(repeating: row, count: rows).joined(separator: ", ")
}
