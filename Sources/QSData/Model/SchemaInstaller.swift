/// Creates a new database from the schema, or brings an existing one up to date, in one
/// transaction that also holds the caller's checks: when anything fails, nothing is kept.
struct SchemaInstaller {
    let schema: QSSchema
    let path: String

    /// Installs the schema, then runs `check` (which sees the installed schema) before committing.
    ///
    /// A database newer than the schema is refused before the transaction begins, so nothing
    /// at all is written to it.
    func install(on connection: SQLiteConnection, check: () throws -> Void) throws {
        let current = try currentVersion(of: connection)
        if current > schema.latestVersion {
            throw QSDataError.databaseTooNew(path: path, databaseVersion: current, appVersion: schema.latestVersion)
        }
        try connection.transaction {
            if try isEmpty(connection) {
                do {
                    try connection.executeScript(schema.creationSQL)
                } catch {
                    throw QSDataError.invalidMigration(file: "the creation SQL", problem: "\(error)")
                }
            }
            for migration in schema.migrations where migration.version > current {
                do {
                    try connection.executeScript(migration.sql)
                    try connection.execute("PRAGMA user_version = \(migration.version)")
                } catch {
                    throw QSDataError.invalidMigration(file: migration.name, problem: "\(error)")
                }
            }
            try check()
        }
    }

    private func isEmpty(_ connection: SQLiteConnection) throws -> Bool {
        let userTables = try connection.fetchValue(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return userTables == .integer(0)
    }

    private func currentVersion(of connection: SQLiteConnection) throws -> Int {
        if case .integer(let version) = try connection.fetchValue("PRAGMA user_version") {
            return Int(version)
        }
        return 0
    }
}
