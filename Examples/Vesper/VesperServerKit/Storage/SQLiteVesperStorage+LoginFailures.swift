import QSData

/// Failed logins in the database file, and the engine's (empty) lifecycle.
extension SQLiteVesperStorage {
    /// Nothing to keep alive: the connection is opened (and the schema migrated) by `init`.
    nonisolated func run() async {}
    nonisolated func prepare() async throws {}

    func loginFailures(keys: [String], since: Int64) throws -> [String: LoginFailures] {
        var result: [String: LoginFailures] = [:]
        for key in keys {
            let row = try connection.fetchRows(
                "SELECT count(*), min(date) FROM loginFailures WHERE key = ? AND date >= ?",
                [.text(key), .integer(since)]
            ).first
            if let count = row?[0].int64Value, count > 0, let oldest = row?[1].int64Value {
                result[key] = LoginFailures(count: Int(count), oldest: oldest)
            }
        }
        return result
    }

    func recordLoginFailure(keys: [String], date: Int64, forgetBefore: Int64) throws {
        try connection.transaction {
            try connection.execute("DELETE FROM loginFailures WHERE date < ?", [.integer(forgetBefore)])
            for key in keys {
                try connection.execute("INSERT INTO loginFailures (key, date) VALUES (?, ?)", [.text(key), .integer(date)])
            }
        }
    }

    func clearLoginFailures(key: String) throws {
        try connection.execute("DELETE FROM loginFailures WHERE key = ?", [.text(key)])
    }
}
