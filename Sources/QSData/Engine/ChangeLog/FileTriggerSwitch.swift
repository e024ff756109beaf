import CSQLite

/// Keeps the change log's triggers from firing for the store's own writes, which log themselves
/// more cheaply, while the app's own triggers (a search index kept by triggers, say) go on firing.
///
/// A trigger costs about as much as the row it fires for, and a store writes the change log one
/// entry per table and kind for a whole transaction instead. So the store's connection switches
/// off the triggers kept in the file (SQLite's `SQLITE_DBCONFIG_ENABLE_TRIGGER`) and runs a
/// TEMP copy of each of the app's triggers, which SQLite 3.35.0 and later still fire. Around the
/// app's own SQL, where the log's triggers must fire, it turns the file's triggers back on and
/// drops the copies, so nothing fires twice.
///
/// Part of the ``QueueState``: touched only on the database queue.
final class FileTriggerSwitch {
    /// The TEMP copies of the app's triggers, and the store's own log triggers, in place now.
    private var copies: [String] = []
    private(set) var fileTriggersOn = true
    /// The TEMP triggers that log the synced tables' changes for the store (see ``LogWriter``),
    /// with those tables, made afresh each time the file's triggers go off: the tables' columns
    /// may have changed, and sync may have started using the file.
    private let storeLogTriggers: (SQLiteConnection) throws -> (tables: Set<String>, triggers: [LoggedTable.Trigger])
    /// The tables whose rows the store's own TEMP triggers log now: the store writes no entries
    /// of its own for them.
    private(set) var tablesLoggedByStoreTriggers: Set<String> = []

    init(storeLogTriggers: @escaping (SQLiteConnection) throws -> (tables: Set<String>, triggers: [LoggedTable.Trigger]) = { _ in ([], []) }) {
        self.storeLogTriggers = storeLogTriggers
    }

    /// SQLite fires TEMP triggers with the file's switched off from this version.
    static let minimumSQLiteVersion: Int32 = 3_035_000

    static var isSupported: Bool { sqlite3_libversion_number() >= minimumSQLiteVersion }

    /// Copies the app's own triggers as TEMP triggers, then switches the file's triggers off. On
    /// failure the file's triggers stay on and no copy is left.
    func switchOff(on connection: SQLiteConnection) throws {
        guard Self.isSupported, fileTriggersOn else { return }
        var made: [String] = []
        do {
            for row in try connection.fetchRows(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name NOT LIKE 'qsdata\\_log\\_%' ESCAPE '\\'") {
                guard case .text(let name) = row[0], case .text(let sql) = row[1] else { continue }
                try connection.execute(Self.temporaryCopy(of: sql))
                made.append(name)
            }
            let own = try storeLogTriggers(connection)
            for trigger in own.triggers {
                try connection.execute(trigger.sql)
                made.append(trigger.name)
            }
            try connection.enableFileTriggers(false)
            tablesLoggedByStoreTriggers = own.tables
        } catch {
            try dropCopies(made, on: connection)
            throw error
        }
        copies = made
        fileTriggersOn = false
    }

    /// Switches the file's triggers back on, without the copies.
    func switchOn(on connection: SQLiteConnection) throws {
        guard !fileTriggersOn else { return }
        try connection.enableFileTriggers(true)
        fileTriggersOn = true
        tablesLoggedByStoreTriggers = []
        let dropping = copies
        copies = []
        try dropCopies(dropping, on: connection)
    }

    private func dropCopies(_ names: [String], on connection: SQLiteConnection) throws {
        for name in names {
            try connection.execute("DROP TRIGGER IF EXISTS temp.\(quoted(name))")
        }
    }

    /// Runs `body` with every trigger of the file firing, as it would for any other connection:
    /// how the app's own SQL reaches the change log.
    func withFileTriggers<Result>(on connection: SQLiteConnection, _ body: () throws -> Result) throws -> Result {
        guard !fileTriggersOn else { return try body() }
        try switchOn(on: connection)
        defer {
            // The app's SQL may have made or dropped triggers of its own: copied afresh. If that
            // fails, the file's triggers stay on: the store's writes are then logged twice, by
            // the triggers and by the store, which costs time but loses nothing.
            try? switchOff(on: connection)
        }
        return try body()
    }

    /// SQLite keeps a trigger's SQL as `CREATE TRIGGER …` however it was typed.
    static func temporaryCopy(of sql: String) -> String {
        let head = "CREATE TRIGGER"
        guard sql.hasPrefix(head) else { return sql }
        return "CREATE TEMP TRIGGER" + sql.dropFirst(head.count)
    }
}

extension SQLiteConnection {
    /// Whether the triggers kept in the database file fire on this connection (TEMP ones always do).
    func enableFileTriggers(_ enabled: Bool) throws {
        let code = csqlite_enable_file_triggers(handle, enabled ? 1 : 0)
        guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
    }
}
