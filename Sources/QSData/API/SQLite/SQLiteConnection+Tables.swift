extension SQLiteConnection {
    /// Every table of the database (SQLite's own and QSData's change log excepted) with the
    /// names of its columns: the shape an app compares with its schema's before it touches a
    /// file it did not create.
    ///
    /// ```swift
    /// let tables = try connection.tableColumns()   // ["notes": ["uniqueID", "text", …], …]
    /// ```
    public func tableColumns() throws -> [String: Set<String>] {
        var tables: [String: Set<String>] = [:]
        let names = try fetchRows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'qsdata\\_change%' ESCAPE '\\'")
        for row in names {
            guard case .text(let name) = row.first else { continue }
            let columns = try fetchRows("SELECT name FROM pragma_table_info(?)", [.text(name)])
            tables[name] = Set(columns.compactMap { if case .text(let column) = $0.first { column } else { nil } })
        }
        return tables
    }
}
