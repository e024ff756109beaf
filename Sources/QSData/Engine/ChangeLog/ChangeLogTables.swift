/// The change log's tables and the triggers that fill it, kept in the database file itself so
/// that every writer of a model table leaves a record: this store, another store in another
/// process, the app's own SQL, a plain `sqlite3` session.
///
/// - `qsdata_changes`: one entry per change, in commit order (`seq`). An entry names a table,
///   a kind (`insert`, `update`, `delete`), the uniqueIDs of its rows as a JSON array, for an
///   update the columns that changed (comma-separated; NULL when any may have), and the store
///   that wrote it (NULL for an entry a trigger wrote).
/// - `qsdata_change_readers`: each open store's position in the log, so that entries every
///   store has read can be removed.
///
/// The triggers write one entry per row. A store's own writes don't fire them (see
/// ``FileTriggerSwitch``): the store writes one entry per table and kind for a whole
/// transaction instead, however many rows it touched.
enum ChangeLogTables {
    static let changes = "qsdata_changes"
    static let readers = "qsdata_change_readers"
    /// Every trigger the log owns starts with this; no other trigger may.
    static let triggerPrefix = "qsdata_log_"

    static let creationSQL = """
        CREATE TABLE IF NOT EXISTS qsdata_changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            tableName TEXT NOT NULL,
            kind TEXT NOT NULL,
            ids TEXT NOT NULL,
            columns TEXT,
            writer TEXT
        );
        CREATE TABLE IF NOT EXISTS qsdata_change_readers (
            reader TEXT PRIMARY KEY,
            seq INTEGER NOT NULL,
            seenAt REAL NOT NULL
        );
        """

    /// Creates the log's tables and brings its triggers to what `tables` need, writing only when
    /// something is missing or different (a read-only file that is up to date opens).
    static func install(_ tables: [LoggedTable], on connection: SQLiteConnection) throws {
        let wanted = Dictionary(uniqueKeysWithValues: tables.flatMap(\.triggers).map { ($0.name, $0.sql) })
        guard try !isInstalled(wanted, on: connection) else { return }
        // Looked at again inside the transaction: another process may have installed them meanwhile.
        try connection.transaction {
            try connection.executeScript(creationSQL)
            let existing = try existingTriggers(on: connection)
            for (name, sql) in existing where wanted[name] != sql {
                try connection.execute("DROP TRIGGER \(quoted(name))")
            }
            for (name, sql) in wanted where existing[name] != sql {
                try connection.execute(sql)
            }
        }
    }

    /// Drops every trigger of the log (before a migration changes the tables they name).
    static func dropTriggers(on connection: SQLiteConnection) throws {
        for name in try existingTriggers(on: connection).keys {
            try connection.execute("DROP TRIGGER \(quoted(name))")
        }
    }

    /// Whether the log's tables are there and its triggers are exactly `wanted`.
    static func isInstalled(_ wanted: [String: String], on connection: SQLiteConnection) throws -> Bool {
        try hasTables(on: connection) && (try existingTriggers(on: connection)) == wanted
    }

    static func hasTables(on connection: SQLiteConnection) throws -> Bool {
        let tableCount = try connection.fetchValue(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('qsdata_changes', 'qsdata_change_readers')")
        return tableCount == .integer(2)
    }

    private static func existingTriggers(on connection: SQLiteConnection) throws -> [String: String] {
        var existing: [String: String] = [:]
        for row in try connection.fetchRows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'qsdata\\_log\\_%' ESCAPE '\\'") {
            if case .text(let name) = row[0], case .text(let sql) = row[1] { existing[name] = sql }
        }
        return existing
    }
}

/// One table whose changes are logged, with the triggers that log them.
struct LoggedTable {
    /// A trigger's name and its SQL exactly as SQLite keeps it.
    struct Trigger {
        let name: String
        let sql: String
    }

    let triggers: [Trigger]

    /// A model table: each row inserted, updated (with the columns that changed) or deleted.
    /// An update that changes a row's uniqueID is logged as the old row deleted and the new one
    /// inserted.
    static func modelTable(_ table: String, columns: [String], for writer: LogWriter = .anyConnection) -> LoggedTable {
        let name = literal(table)
        let id = quoted("uniqueID")
        let changedColumns = columns.filter { $0 != "uniqueID" }.map { column in
            "CASE WHEN OLD.\(quoted(column)) IS NOT NEW.\(quoted(column)) THEN \(literal(column + ",")) ELSE '' END"
        }
        let columnList = changedColumns.isEmpty ? "''" : changedColumns.joined(separator: " || ")
        let insert = writer.insertHead
        let by = writer.valueTail
        return LoggedTable(triggers: [
            Trigger(name: writer.triggerName(table, "insert"), sql: """
                \(writer.createHead) \(quoted(writer.triggerName(table, "insert"))) AFTER INSERT ON \(writer.table(table)) BEGIN
                    \(insert) VALUES (\(name), 'insert', json_array(NEW.\(id)), NULL\(by));
                END
                """),
            Trigger(name: writer.triggerName(table, "update"), sql: """
                \(writer.createHead) \(quoted(writer.triggerName(table, "update"))) AFTER UPDATE ON \(writer.table(table)) BEGIN
                    \(insert) SELECT \(name), 'update', json_array(NEW.\(id)), rtrim(changed, ',')\(by)
                        FROM (SELECT \(columnList) AS changed) WHERE changed != '' AND OLD.\(id) IS NEW.\(id);
                    \(insert) SELECT \(name), 'delete', json_array(OLD.\(id)), NULL\(by) WHERE OLD.\(id) IS NOT NEW.\(id);
                    \(insert) SELECT \(name), 'insert', json_array(NEW.\(id)), NULL\(by) WHERE OLD.\(id) IS NOT NEW.\(id);
                END
                """),
            Trigger(name: writer.triggerName(table, "delete"), sql: """
                \(writer.createHead) \(quoted(writer.triggerName(table, "delete"))) AFTER DELETE ON \(writer.table(table)) BEGIN
                    \(insert) VALUES (\(name), 'delete', json_array(OLD.\(id)), NULL\(by));
                END
                """),
        ])
    }

    /// A relationship's lookup table: a row added, moved or removed is logged as an update of
    /// its parent, naming the relationship as the column that changed.
    static func lookupTable(
        _ table: String, owners: [(parentTable: String, parentIDColumn: String, relationship: String)], for writer: LogWriter = .anyConnection
    ) -> LoggedTable {
        func entries(_ row: String) -> String {
            owners.map { owner in
                "\(writer.insertHead) VALUES (\(literal(owner.parentTable)), 'update', json_array(\(row).\(quoted(owner.parentIDColumn))), \(literal(owner.relationship))\(writer.valueTail));"
            }.joined(separator: "\n    ")
        }
        return LoggedTable(triggers: [
            Trigger(name: writer.triggerName(table, "insert"), sql: """
                \(writer.createHead) \(quoted(writer.triggerName(table, "insert"))) AFTER INSERT ON \(writer.table(table)) BEGIN
                    \(entries("NEW"))
                END
                """),
            Trigger(name: writer.triggerName(table, "update"), sql: """
                \(writer.createHead) \(quoted(writer.triggerName(table, "update"))) AFTER UPDATE ON \(writer.table(table)) BEGIN
                    \(entries("NEW"))
                    \(entries("OLD"))
                END
                """),
            Trigger(name: writer.triggerName(table, "delete"), sql: """
                \(writer.createHead) \(quoted(writer.triggerName(table, "delete"))) AFTER DELETE ON \(writer.table(table)) BEGIN
                    \(entries("OLD"))
                END
                """),
        ])
    }

    static func literal(_ text: String) -> String {
        enclosed(text, in: "'")
    }
}

/// Who a log trigger writes entries for.
enum LogWriter {
    /// Any connection to the file: a trigger kept in the file, writing entries without a writer.
    case anyConnection
    /// The store's own connection, for a synced table: a TEMP trigger, which fires for the
    /// store's writes while the file's triggers are off, writing entries that name the store
    /// (so the store skips them, having written the rows itself) and, unlike the store's own
    /// entries, say which columns each update changed.
    case store(String)

    /// The prefix of the TEMP triggers that log a synced table's changes for the store.
    static let storeTriggerPrefix = "qsdata_own_"

    func triggerName(_ table: String, _ kind: String) -> String {
        switch self {
        case .anyConnection: ChangeLogTables.triggerPrefix + table + "_" + kind
        case .store: Self.storeTriggerPrefix + table + "_" + kind
        }
    }

    var createHead: String {
        switch self {
        case .anyConnection: "CREATE TRIGGER"
        case .store: "CREATE TEMP TRIGGER"
        }
    }

    /// The table a trigger is on: a TEMP trigger names the file's table by its schema.
    func table(_ name: String) -> String {
        switch self {
        case .anyConnection: quoted(name)
        case .store: "main." + quoted(name)
        }
    }

    var insertHead: String {
        switch self {
        case .anyConnection: "INSERT INTO qsdata_changes (tableName, kind, ids, columns)"
        case .store: "INSERT INTO qsdata_changes (tableName, kind, ids, columns, writer)"
        }
    }

    var valueTail: String {
        switch self {
        case .anyConnection: ""
        case .store(let writer): ", " + LoggedTable.literal(writer)
        }
    }
}

extension ChangeLogTables {
    /// The tables of `model` whose changes are logged, with their triggers (a model table's
    /// columns as the file has them), and the types stored in each.
    static func plan(for model: QSDataModel, on connection: SQLiteConnection) throws -> (tables: [LoggedTable], typesByTable: [String: [String]]) {
        var typesByTable: [String: [String]] = [:]
        var logged: Set<String> = []
        for description in model.objectTypes.values {
            typesByTable[description.table, default: []].append(description.name)
            if description.logsChanges { logged.insert(description.table) }
        }
        typesByTable = typesByTable.filter { logged.contains($0.key) }
        return (try loggedTables(logged, of: model, for: .anyConnection, on: connection), typesByTable)
    }

    /// The TEMP triggers that log the changes of the synced tables (those of types the model
    /// marks `synced`) for the store's own connection, whose writes the file's triggers skip;
    /// none until sync has used the file (made its `qsdata_sync_state` table), so that a model
    /// that declares sync costs nothing until the app syncs.
    static func storeTriggers(for model: QSDataModel, writer: String, on connection: SQLiteConnection) throws -> (tables: Set<String>, triggers: [LoggedTable.Trigger]) {
        let synced = syncedTables(of: model)
        guard !synced.isEmpty, try connection.fetchValue(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'qsdata_sync_state'") != nil
        else { return ([], []) }
        return (synced, try loggedTables(synced, of: model, for: .store(writer), on: connection).flatMap(\.triggers))
    }

    /// The tables a type marked `synced` is stored in.
    static func syncedTables(of model: QSDataModel) -> Set<String> {
        Set(model.objectTypes.values.filter(\.synced).map(\.table))
    }

    /// The triggers for `logged` model tables and the lookup tables of their types' relationships.
    private static func loggedTables(_ logged: Set<String>, of model: QSDataModel, for writer: LogWriter, on connection: SQLiteConnection) throws -> [LoggedTable] {
        var tables: [LoggedTable] = []
        for table in logged.sorted() {
            // A table the file lacks (an app's SQL dropped it) gets no triggers.
            let tableColumns = try columns(of: table, on: connection)
            if !tableColumns.isEmpty { tables.append(.modelTable(table, columns: tableColumns, for: writer)) }
        }
        var ownersByLookup: [String: [(parentTable: String, parentIDColumn: String, relationship: String)]] = [:]
        for description in model.objectTypes.values.sorted(by: { $0.name < $1.name }) where logged.contains(description.table) {
            for relationship in description.relationships {
                let owner = (description.table, relationship.parentIDColumn, relationship.name)
                if !(ownersByLookup[relationship.table] ?? []).contains(where: { $0 == owner }) {
                    ownersByLookup[relationship.table, default: []].append(owner)
                }
            }
        }
        for (lookup, owners) in ownersByLookup.sorted(by: { $0.key < $1.key }) where try !columns(of: lookup, on: connection).isEmpty {
            tables.append(.lookupTable(lookup, owners: owners, for: writer))
        }
        return tables
    }

    private static func columns(of table: String, on connection: SQLiteConnection) throws -> [String] {
        try connection.fetchRows("SELECT name FROM pragma_table_info(?)", [.text(table)])
            .compactMap { row -> String? in if case .text(let name) = row.first { name } else { nil } }
    }
}
