/// Creates a new database from the schema, or brings an existing one up to date.
///
/// A database newer than the schema is refused before anything is written. When anything must
/// change, the check, the creation or migrations and the caller's validation all run in one
/// write transaction: two processes opening a brand-new database at once take turns (the second
/// finds the tables made and skips creating them), and a file that fails validation — someone
/// else's SQLite database — is rolled back, left exactly as it was; a file whose tables are not
/// the ones this schema makes at the file's version is refused before anything runs on it. When nothing must change no
/// write is attempted, so a read-only database opens.
struct SchemaInstaller {
    let schema: QSSchema
    /// The database file, for errors.
    let path: String

    /// Installs or migrates as needed, then runs `validate` (inside the transaction when there
    /// is one, so that a throw undoes everything).
    func install(on connection: SQLiteConnection, validate: (SQLiteConnection) throws -> Void) throws {
        let current = try currentVersion(of: connection)
        if current > schema.latestVersion {
            throw QSDataError.databaseTooNew(path: path, databaseVersion: current, appVersion: schema.latestVersion)
        }
        // A file with tables of its own must be this schema's at its version before anything
        // runs on it: someone else's SQLite database is refused as it is.
        let hasTables = try userTableCount(connection) > 0
        if hasTables && current < schema.latestVersion {
            try refuseUnlessOwn(connection, version: current)
        }
        guard try needsChanges(connection) else {
            do {
                try validate(connection)
            } catch QSDataError.schemaMismatch(let problems) {
                try refuseUnlessOwn(connection, version: current)
                throw QSDataError.schemaMismatch(problems)
            }
            return
        }
        try connection.transaction {
            if try userTableCount(connection) == 0 {
                do {
                    try connection.executeScript(schema.creationSQL)
                } catch {
                    throw QSDataError.invalidMigration(file: "the creation SQL", problem: "\(error)")
                }
            }
            // Read again inside the transaction: another process may have migrated meanwhile.
            let current = try currentVersion(of: connection)
            // The change log's triggers name the columns they log: a migration that drops or
            // renames one would fail on them. They are made again, for the new columns, once the
            // store has opened.
            if schema.migrations.contains(where: { $0.version > current }) {
                try ChangeLogTables.dropTriggers(on: connection)
            }
            for migration in schema.migrations where migration.version > current {
                do {
                    try connection.savepoint {
                        try connection.executeScript(migration.sql)
                        try connection.execute("PRAGMA user_version = \(migration.version)")
                    }
                } catch {
                    throw QSDataError.invalidMigration(file: migration.name, problem: "\(error)")
                }
            }
            try validate(connection)
        }
    }

    /// Throws ``QSDataError/foreignDatabase(path:)`` unless the file has every table, with
    /// every column, that the creation SQL and the migrations up to `version` make.
    private func refuseUnlessOwn(_ connection: SQLiteConnection, version: Int) throws {
        let expected = try expectedTables(atVersion: version)
        let found = try connection.tableColumns()
        for (table, columns) in expected {
            guard let foundColumns = found[table], columns.isSubset(of: foundColumns) else {
                throw QSDataError.foreignDatabase(path: path)
            }
        }
    }

    /// The tables and columns of a database this schema made and migrated to `version`, built
    /// in memory.
    private func expectedTables(atVersion version: Int) throws -> [String: Set<String>] {
        let scratch = try SQLiteConnection(path: ":memory:")
        do {
            try scratch.executeScript(schema.creationSQL)
        } catch {
            throw QSDataError.invalidMigration(file: "the creation SQL", problem: "\(error)")
        }
        for migration in schema.migrations where migration.version <= version {
            do {
                try scratch.executeScript(migration.sql)
            } catch {
                throw QSDataError.invalidMigration(file: migration.name, problem: "\(error)")
            }
        }
        return try scratch.tableColumns()
    }

    private func needsChanges(_ connection: SQLiteConnection) throws -> Bool {
        try userTableCount(connection) == 0 || currentVersion(of: connection) < schema.latestVersion
    }

    private func userTableCount(_ connection: SQLiteConnection) throws -> Int64 {
        let count = try connection.fetchValue(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if case .integer(let value) = count { return value }
        return 0
    }

    private func currentVersion(of connection: SQLiteConnection) throws -> Int {
        if case .integer(let version) = try connection.fetchValue("PRAGMA user_version") {
            return Int(version)
        }
        return 0
    }
}
