import QSData

/// Writes merged values into one synced table's rows and lookup rows.
struct RowWriter {
    let table: SyncedTable
    let connection: SQLiteConnection

    func update(_ id: SQLValue, with values: [(String, SyncValue)]) throws {
        let columns = values.compactMap { name, value in
            table.column(named: name).flatMap { column in value.column(of: column.type).map { (name, $0) } }
        }
        guard !columns.isEmpty else { return }
        let assignments = columns.map { "\(quoted($0.0)) = ?" }.joined(separator: ", ")
        try connection.statement("UPDATE \(quoted(table.name)) SET \(assignments) WHERE \(quoted("uniqueID")) = ?")
            .run(columns.map(\.1) + [id])
    }

    /// Gives the row's `columns` what an insert naming none of them would: each column's default,
    /// NULL where the table declares none. A column that takes no NULL and has no default keeps
    /// its value (an insert without it would fail).
    func resetToDefaults(_ id: SQLValue, columns: [String]) throws {
        guard !columns.isEmpty else { return }
        var defaults: [String: String] = [:]
        var required: Set<String> = []
        for row in try connection.fetchRows("SELECT name, dflt_value, \"notnull\" FROM pragma_table_info(?)", [.text(table.name)]) where row.count == 3 {
            guard case .text(let name) = row[0] else { continue }
            if case .text(let declared) = row[1] {
                defaults[name] = ColumnDefault.expression(declared: declared)
            } else if row[2] == .integer(1) {
                required.insert(name)
            }
        }
        let assignments = columns.filter { !required.contains($0) }.map { "\(quoted($0)) = \(defaults[$0] ?? "NULL")" }
        guard !assignments.isEmpty else { return }
        try connection.statement("UPDATE \(quoted(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \(quoted("uniqueID")) = ?").run([id])
    }

    /// Inserts the row; false when its table requires a value the change lacks.
    func insert(_ id: SQLValue, with values: [(String, SyncValue)]) throws -> Bool {
        let columns = values.compactMap { name, value in
            table.column(named: name).flatMap { column in value.column(of: column.type).map { (name, $0) } }
        }
        let names = ([quoted("uniqueID")] + columns.map { quoted($0.0) }).joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
        do {
            try connection.statement("INSERT INTO \(quoted(table.name)) (\(names)) VALUES (\(marks))").run([id] + columns.map(\.1))
        } catch let error as SQLiteError where error.isConstraintViolation {
            return false
        }
        return true
    }

    /// Deletes the row and every lookup row naming it.
    func delete(_ id: SQLValue) throws {
        try connection.statement("DELETE FROM \(quoted(table.name)) WHERE \(quoted("uniqueID")) = ?").run([id])
        for reference in table.parentReferences {
            try connection.statement("DELETE FROM \(quoted(reference.lookupTable)) WHERE \(quoted(reference.parentIDColumn)) = ?").run([id])
        }
        for reference in table.childReferences {
            try connection.statement("DELETE FROM \(quoted(reference.lookupTable)) WHERE \(quoted(reference.childIDColumn)) = ?").run([id])
        }
    }

    /// Takes out what waits to be pushed of the object: all of it, or the parts named.
    func forgetOutbox(of id: SQLValue, parts: [String]? = nil) throws {
        guard let parts else {
            return try connection.statement("DELETE FROM qsdata_sync_outbox WHERE tableName = ? AND id = ?").run([.text(table.name), id])
        }
        let remove = try connection.statement("DELETE FROM qsdata_sync_outbox WHERE tableName = ? AND id = ? AND part = ?")
        for part in parts { try remove.run([.text(table.name), id, .text(part)]) }
    }

    /// Rewrites the lookup rows of `list` to the children `record` lists, in their keys' order,
    /// leaving out synced children this replica doesn't hold: deleted ones (a device that added a
    /// child another deleted still lists it) and ones still to arrive (the list's parts may come
    /// before the child's creation; the list is rewritten when it comes). Every replica that
    /// holds the same objects and parts writes the same rows.
    func rewriteList(_ list: String, of id: SQLValue, from record: SyncRecord) throws {
        guard let relationship = table.list(named: list) else { return }
        var listed = ListItems.listed(list, in: record).map(\.child)
        if let childTable = table.childTables[list] {
            let held = try TableRows.existing(listed, in: childTable, on: connection)
            listed = listed.filter(held.contains)
        }
        let lookup = quoted(relationship.table), parent = quoted(relationship.parentIDColumn)
        try connection.statement("DELETE FROM \(lookup) WHERE \(parent) = ?").run([id])
        let insert = try connection.statement(
            "INSERT INTO \(lookup) (\(parent), \(quoted(relationship.childIDColumn)), \(quoted(relationship.indexColumn))) VALUES (?, ?, ?)")
        for (offset, child) in listed.enumerated() {
            // Gaps between the positions, as the store leaves them, so a later move rewrites one row.
            try insert.run([id, child.sqlValue, .integer(Int64(offset + 1) * 1024)])
        }
    }
}
