import CSQLite
import Foundation

/// One open SQLite database: runs SQL, caches prepared statements, wraps transactions.
///
/// A connection is not thread-safe; ``QSStore`` owns one and uses it only on its serial queue.
/// Apps reach it through ``QSStore/read(_:)`` and ``QSStore/write(_:_:)`` to run their own SQL.
public final class SQLiteConnection {
    /// The database file's path (`:memory:` for an in-memory database).
    public let path: String
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    private var recorder: StatementRecorder?

    /// Opens (creating when missing) the database at `path`. Nothing is written: the journal
    /// mode is switched to WAL by ``useWriteAheadLog()`` once the caller knows the file is its own.
    ///
    /// A database in a folder that can't be written (so SQLite can't create the WAL index
    /// beside it) is opened read-only and immutable, so it can still be read.
    ///
    /// - Throws: ``QSDataError/cannotOpenDatabase(path:reason:)`` when the file can't be opened or
    ///   created, ``QSDataError/notADatabase(path:)`` when it exists but is not SQLite.
    public init(path: String) throws {
        self.path = path
        self.handle = try SQLiteOpener(path: path).open()
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5_000)
        // Every property is set by now, so a throw below still runs `deinit`, which closes the
        // handle: closing it here too would close it twice.
        try execute("PRAGMA synchronous = NORMAL")
        // A bulk UPDATE or DELETE keeps its statement journal in memory rather than
        // writing it to a temporary file (see "Bulk operations" in HowTheStoreWorks).
        try execute("PRAGMA temp_store = MEMORY")
    }

    /// SQLite's data version of the main database file: it changes with every commit, by this
    /// connection or another, as this connection last saw the file (SQLite looks when a
    /// transaction starts). Nil when the file's storage cannot tell.
    var dataVersion: UInt32? {
        var version: UInt32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK else { return nil }
        return version
    }

    /// Whether the connection can only read (the file or its folder is not writable).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The SQLite library's version, such as `3.40.1`.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    // MARK: Statements

    /// The prepared statement for `sql`, from the cache when it was prepared before.
    public func statement(_ sql: String) throws -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try SQLiteStatement(sql: sql, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Runs one statement with `arguments`, ignoring any rows it returns.
    public func execute(_ sql: String, _ arguments: [SQLValue] = []) throws {
        try statement(sql).run(arguments)
    }

    /// Runs every statement of a script (such as a schema file) in order. Scripts take no arguments.
    public func executeScript(_ script: String) throws {
        var remaining = script[...]
        while true {
            let trimmed = remaining.drop { $0.isWhitespace || $0 == ";" }
            if trimmed.isEmpty { return }
            let (sql, rest) = try prepareFirst(of: String(trimmed))
            defer { sqlite3_finalize(sql) }
            if let sql {
                var code = sqlite3_step(sql)
                while code == SQLITE_ROW { code = sqlite3_step(sql) }
                guard code == SQLITE_DONE else {
                    throw self.error(code: code, sql: String(cString: sqlite3_sql(sql)))
                }
            }
            remaining = rest[...]
        }
    }

    private func prepareFirst(of script: String) throws -> (OpaquePointer?, String) {
        try script.withCString { start in
            var handle: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(self.handle, start, -1, &handle, &tail)
            guard code == SQLITE_OK else {
                throw self.error(code: code, sql: script.prefix(200).description)
            }
            let rest = tail.map { String(cString: $0) } ?? ""
            return (handle, rest)
        }
    }

    /// Runs a query and returns every row as an array of values, column by column.
    public func fetchRows(_ sql: String, _ arguments: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var rows: [[SQLValue]] = []
        let columns = statement.columnCount
        while try statement.step() {
            rows.append((0..<columns).map { statement.value(at: $0) })
        }
        return rows
    }

    /// Runs a query and returns the first column of its first row, or nil when there is no row.
    public func fetchValue(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLValue? {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.value(at: 0)
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// Nested calls join the outer transaction through a savepoint, so an inner failure rolls
    /// back only the inner work when the caller catches it.
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        if isInTransaction {
            return try savepoint(body)
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` inside a savepoint of the open transaction: an error rolls back only its work.
    func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("SAVEPOINT qsdata")
        do {
            let result = try body()
            try execute("RELEASE qsdata")
            return result
        } catch {
            try? execute("ROLLBACK TO qsdata")
            try? execute("RELEASE qsdata")
            throw error
        }
    }

    // MARK: Statement recording

    /// Starts recording every statement SQLite runs on this connection.
    func startRecording(_ recorder: StatementRecorder) {
        self.recorder = recorder
        let context = Unmanaged.passUnretained(recorder).toOpaque()
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, text in
            guard let context, let statement, let sql = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            // SQLite also reports what a statement's triggers run ("-- TRIGGER name", then
            // "-- <each trigger statement>") under the same prepared statement: those are part
            // of the statement, not statements of their own. Only the statement's own text is.
            if let text, strcmp(text.assumingMemoryBound(to: CChar.self), sql) != 0 { return 0 }
            let recorder = Unmanaged<StatementRecorder>.fromOpaque(context).takeUnretainedValue()
            recorder.record(String(cString: sql))
            return 0
        }, context)
    }

    /// Stops recording; the recorder keeps what it saw.
    func stopRecording() {
        sqlite3_trace_v2(handle, 0, nil, nil)
        recorder = nil
    }

    // MARK: Errors

    func error(code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(
            code: code & 0xFF,
            extendedCode: sqlite3_extended_errcode(handle),
            message: String(cString: sqlite3_errmsg(handle)),
            sql: sql)
    }
}
