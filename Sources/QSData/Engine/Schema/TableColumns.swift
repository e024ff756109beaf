/// What the SQL declares about a table's columns, read once when the store opens.
struct TableColumns {
    struct Column {
        let name: String
        let declaredType: String
        let isNotNull: Bool
        /// The column's `DEFAULT` as the schema writes it (`0`, `'draft'`, `CURRENT_TIMESTAMP`), or nil.
        let defaultSQL: String?
        let isPrimaryKey: Bool

        var hasDefault: Bool { defaultSQL != nil }

        /// The column's type affinity, by SQLite's rules for declared types.
        var affinity: ColumnAffinity { ColumnAffinity(declaredType: declaredType) }

        /// Whether an INSERT that leaves the column out fails.
        var mustBeGiven: Bool { isNotNull && !hasDefault && !isPrimaryKey }
    }

    /// Whether SQLite keeps an index for the primary key (listed with origin "pk"): it does
    /// exactly when the key is not the rowid.
    let primaryKeyHasIndex: Bool
    let columns: [Column]

    /// Whether the uniqueID column is the table's rowid: its only primary key column, declared
    /// INTEGER, without an index of its own (which a WITHOUT ROWID table and the INTEGER PRIMARY
    /// KEY DESC quirk have).
    var uniqueIDIsRowID: Bool {
        let keys = columns.filter(\.isPrimaryKey)
        return keys.count == 1 && keys[0].name.lowercased() == "uniqueid"
            && keys[0].declaredType.uppercased() == "INTEGER" && !primaryKeyHasIndex
    }

    /// The table's columns; empty when the table does not exist.
    static func read(_ table: String, from connection: SQLiteConnection) throws -> TableColumns {
        let rows = try connection.fetchRows(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", [.text(table)])
        let primaryKeyIndexes = try connection.fetchRows("SELECT 1 FROM pragma_index_list(?) WHERE origin = 'pk'", [.text(table)])
        return TableColumns(primaryKeyHasIndex: !primaryKeyIndexes.isEmpty, columns: rows.compactMap { row in
            guard row.count == 5, case .text(let name) = row[0] else { return nil }
            let type: String
            if case .text(let declared) = row[1] { type = declared } else { type = "" }
            let defaultSQL: String?
            if case .text(let written) = row[3] { defaultSQL = written } else { defaultSQL = nil }
            return Column(
                name: name, declaredType: type, isNotNull: row[2] == .integer(1),
                defaultSQL: defaultSQL, isPrimaryKey: row[4] != .integer(0))
        })
    }

    var names: Set<String> { Set(columns.map(\.name)) }

    func column(named name: String) -> Column? {
        columns.first { $0.name == name }
    }
}

/// SQLite's type affinity of a column: how it converts the values stored in it.
enum ColumnAffinity: String {
    case integer = "INTEGER"
    case text = "TEXT"
    case blob = "BLOB"
    case real = "REAL"
    case numeric = "NUMERIC"

    /// The affinity SQLite gives a column declared with `declaredType`, rule by rule in its order.
    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }

    /// Whether values of a property of `type` keep their storage class in such a column, so
    /// that they read back as what was saved. A column without a declared type keeps anything.
    func keeps(_ type: QSPropertyType) -> Bool {
        switch type {
        case .int64, .boolean: return [.integer, .numeric, .blob].contains(self)
        case .double, .date: return [.real, .numeric, .integer, .blob].contains(self)
        case .string, .json: return [.text, .blob].contains(self)
        case .data, .plist: return self == .blob
        }
    }
}
