/// Creates a new database from the schema, or brings an existing one up to date.
///
/// A database newer than the schema is refused before anything is written. When anything must
/// change, the check, the creation or migrations and the caller's validation all run in one
/// write transaction: two processes opening a brand-new database at once take turns (the second
/// finds the tables made and skips creating them), and a file that fails validation — someone
/// else's SQLite database — is rolled back, left exactly as it was. When nothing must change no
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
        guard try needsChanges(connection) else {
            try validate(connection)
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
