import QSData

/// Where the next pull of each space starts, as the server's token: the account's own objects'
/// (space nil) in `qsdata_sync_state`, each group's in `qsdata_sync_groups`.
enum PullTokens {
    static func token(of space: String?, on connection: SQLiteConnection) throws -> String? {
        guard let space else { return try SyncStateTables.text(.token, on: connection) }
        return try GroupSpaces.syncedGroups(on: connection).first { $0.group == space }?.token
    }

    static func keep(_ token: String, of space: String?, on connection: SQLiteConnection) throws {
        if let space {
            try GroupSpaces.setToken(token, of: space, on: connection)
        } else {
            try SyncStateTables.set(.token, to: .text(token), on: connection)
        }
    }
}
