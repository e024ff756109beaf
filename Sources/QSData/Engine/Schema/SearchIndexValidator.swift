import Foundation

/// Checks a type's declared full-text search against the real schema: the FTS5 table, its
/// columns, its `content=` options, and the triggers that keep it current.
///
/// The schema SQL is the app's; the triggers are what keep the index right through every write
/// (saves, bulk updates and deletes, the app's own SQL), so a missing one is a mismatch like a
/// missing column.
struct SearchIndexValidator {
    let connection: SQLiteConnection

    func problems(for type: QSObjectDescription) throws -> [String] {
        guard let search = type.search else { return [] }
        let place = "\(type.name).search"
        guard let ftsSQL = try schemaSQL(of: "table", named: search.table) else {
            return ["\(place): table '\(search.table)' does not exist"]
        }
        let declaration = Self.normalised(ftsSQL)
        guard declaration.contains("USING FTS5") else {
            return ["\(place): '\(search.table)' is not an FTS5 virtual table (CREATE VIRTUAL TABLE … USING fts5(…))"]
        }
        var problems: [String] = []
        let columns = try columnNames(of: search.table)
        if columns != search.columns {
            problems.append("\(place): '\(search.table)' has columns (\(columns.joined(separator: ", "))); the model declares (\(search.columns.joined(separator: ", ")))")
        }
        let tableColumns = Set(try columnNames(of: type.table))
        for column in search.columns where !tableColumns.contains(column) {
            problems.append("\(place): table '\(type.table)' has no column '\(column)' to index")
        }
        problems += try contentProblems(search, type: type, ftsSQL: ftsSQL, place: place)
        problems += try triggerProblems(search, type: type, place: place)
        return problems
    }

    // MARK: Options

    private func contentProblems(_ search: QSSearchDescription, type: QSObjectDescription, ftsSQL: String, place: String) throws -> [String] {
        var problems: [String] = []
        if let content = Self.option("content", in: ftsSQL), content.lowercased() != type.table.lowercased() {
            problems.append("\(place): '\(search.table)' indexes content='\(content)', not the type's table '\(type.table)'")
        }
        if let tableSQL = try schemaSQL(of: "table", named: type.table), Self.normalised(tableSQL).contains("WITHOUT ROWID") {
            problems.append("\(place): table '\(type.table)' is WITHOUT ROWID; an FTS5 index needs the table's rowid")
        }
        if let rowidColumn = Self.option("content_rowid", in: ftsSQL), rowidColumn.lowercased() != "rowid",
           try !isRowidAlias(rowidColumn, of: type.table) {
            problems.append("\(place): content_rowid='\(rowidColumn)' must be the rowid or the INTEGER PRIMARY KEY of '\(type.table)'")
        }
        return problems
    }

    private func isRowidAlias(_ column: String, of table: String) throws -> Bool {
        let keys = try connection.fetchRows("SELECT name, type FROM pragma_table_info(?) WHERE pk > 0", [.text(table)])
        guard keys.count == 1, case .text(let name) = keys[0][0], case .text(let type) = keys[0][1] else { return false }
        return name.lowercased() == column.lowercased() && type.uppercased() == "INTEGER"
    }

    // MARK: Triggers

    private func triggerProblems(_ search: QSSearchDescription, type: QSObjectDescription, place: String) throws -> [String] {
        let rows = try connection.fetchRows(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE", [.text(type.table)])
        let ftsName = search.table.uppercased()
        // Only the header (before BEGIN) says which event fires the trigger; the body must write the index.
        let headers: [String] = rows.compactMap { row in
            guard case .text(let sql) = row.first else { return nil }
            let text = Self.normalised(sql)
            guard let begin = text.range(of: " BEGIN "), text[begin.upperBound...].contains(ftsName) else { return nil }
            return String(text[..<begin.lowerBound])
        }
        var problems: [String] = []
        for (event, what) in [("INSERT ON", "inserted"), ("DELETE ON", "deleted")] where !headers.contains(where: { $0.contains(event) }) {
            problems.append("\(place): no trigger on '\(type.table)' writes '\(search.table)' when rows are \(what)")
        }
        let updateHeaders = headers.filter { $0.contains("UPDATE ON") || $0.contains("UPDATE OF ") }
        if updateHeaders.isEmpty {
            problems.append("\(place): no trigger on '\(type.table)' writes '\(search.table)' when rows are updated")
        } else if !updateHeaders.contains(where: { $0.contains("UPDATE ON") }) {
            // `UPDATE OF a, b ON t`: every indexed column must be listed.
            let columnLists = updateHeaders.compactMap { header -> Substring? in
                guard let of = header.range(of: "UPDATE OF "), let on = header.range(of: " ON ", range: of.upperBound..<header.endIndex) else { return nil }
                return header[of.upperBound..<on.lowerBound]
            }
            let listed = sqlWords(in: columnLists.joined(separator: " "))
            for column in search.columns where !listed.contains(column.lowercased()) {
                problems.append("\(place): no update trigger on '\(type.table)' fires when '\(column)' changes")
            }
        }
        return problems
    }

    // MARK: Reading the schema

    private func schemaSQL(of kind: String, named name: String) throws -> String? {
        let value = try connection.fetchValue(
            "SELECT sql FROM sqlite_master WHERE type = ? AND name = ? COLLATE NOCASE", [.text(kind), .text(name)])
        if case .text(let sql) = value { return sql }
        return nil
    }

    private func columnNames(of table: String) throws -> [String] {
        try connection.fetchRows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).compactMap { row in
            if case .text(let name) = row.first { return name }
            return nil
        }
    }

    /// Upper-cased, with quotes dropped and runs of whitespace made one space.
    static func normalised(_ sql: String) -> String {
        let unquoted = sql.uppercased().filter { $0 != "\"" && $0 != "`" && $0 != "[" && $0 != "]" }
        return unquoted.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The value of an FTS5 option such as `content='notes'`, unquoted; nil when not given.
    static func option(_ name: String, in sql: String) -> String? {
        guard let open = sql.firstIndex(of: "("), let close = sql.lastIndex(of: ")"), open < close else { return nil }
        for argument in sql[sql.index(after: open)..<close].split(separator: ",") {
            let parts = argument.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == name else { continue }
            return parts[1].trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "'\"`"))
        }
        return nil
    }
}
