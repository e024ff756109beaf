/// Creates a new database from the schema, or brings an existing one up to date.
struct SchemaInstaller {
    let schema: QSSchema

    func install(on connection: SQLiteConnection) throws {
        let userTables = try connection.fetchValue(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if userTables == .integer(0) {
            try connection.transaction {
                try connection.executeScript(schema.creationSQL)
            }
        }
        let current = try currentVersion(of: connection)
        for migration in schema.migrations where migration.version > current {
            do {
                try connection.transaction {
                    try connection.executeScript(migration.sql)
                    try connection.execute("PRAGMA user_version = \(migration.version)")
                }
            } catch {
                throw QSDataError.invalidMigration(file: migration.name, problem: "\(error)")
            }
        }
    }

    private func currentVersion(of connection: SQLiteConnection) throws -> Int {
        if case .integer(let version) = try connection.fetchValue("PRAGMA user_version") {
            return Int(version)
        }
        return 0
    }
}
