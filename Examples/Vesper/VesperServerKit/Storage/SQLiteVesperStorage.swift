import Foundation
import QSData

/// The embedded storage engine: one SQLite file through QSData's `SQLiteConnection`.
///
/// The actor owns the connection and runs on its own serial dispatch queue, so every call is
/// serialised and blocking SQLite work never runs on an event loop. All SQL is parameterised.
actor SQLiteVesperStorage: VesperStorage {
    private let executor: DispatchQueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let connection: SQLiteConnection
    let cipher: TextCipher
    let clock: ServerClock
    /// The last `serverModificationDate` handed out; dates only ever increase (see ``nextDate()``).
    private var lastDate: Int64

    init(path: String, cipher: TextCipher, clock: ServerClock) throws {
        executor = DispatchQueueExecutor(label: "vesper-server.sqlite")
        // Created readable by the server's user only; SQLite gives the -wal and -shm files the
        // same permissions as the database.
        if !FileManager.default.fileExists(atPath: path) {
            // A failure here shows up as SQLite's own, clearer, open error just below.
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path)
            try SQLiteSchema.requireOwnFile(connection, path: path)
        } catch QSDataError.notADatabase {
            throw StorageError.notAServerDatabase(path: path)
        } catch let error as SQLiteError where error.code == 26 {
            // SQLITE_NOTADB, from the first read of a file that isn't SQLite.
            throw StorageError.notAServerDatabase(path: path)
        }
        try connection.useWriteAheadLog()
        try SQLiteSchema.migrate(connection)
        let latest = try connection.fetchValue(
            """
            SELECT max(coalesce((SELECT max(serverModificationDate) FROM notes), 0),
                       coalesce((SELECT max(serverModificationDate) FROM deletedNotes), 0))
            """)
        lastDate = latest?.int64Value ?? 0
        self.connection = connection
        self.cipher = cipher
        self.clock = clock
    }

    /// The date of one write call: the wall clock in milliseconds, but always later than the
    /// previous call's. Calls are serialised, so a sync token carrying date D means "every row
    /// with serverModificationDate ≤ D was visible to the call that issued it".
    func nextDate() -> Int64 {
        lastDate = max(clock.milliseconds(), lastDate + 1)
        return lastDate
    }

    // MARK: Accounts

    func createAccount(username: String, passwordHash: String, passwordAlgorithm: String, emailUpdates: Bool)
        throws -> Int64
    {
        let now = clock.milliseconds()
        do {
            return try connection.transaction {
                try connection.execute(
                    """
                    INSERT INTO accounts (username, passwordHash, passwordAlgorithm, credentialVersion, emailUpdates,
                        dateCreated) VALUES (?, ?, ?, 1, ?, ?)
                    """,
                    [.text(username), .text(passwordHash), .text(passwordAlgorithm), .bool(emailUpdates), .integer(now)])
                return try connection.fetchValue("SELECT last_insert_rowid()")?.int64Value ?? 0
            }
        } catch let error as SQLiteError where error.extendedCode == 2067 || error.extendedCode == 1555 {
            // SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY: the unique index makes creation atomic (two racing sign-ups can't both win).
            throw StorageError.usernameTaken
        }
    }

    func account(username: String) throws -> Account? {
        try fetchAccount(where: "username = ?", .text(username))
    }

    func account(id: Int64) throws -> Account? {
        try fetchAccount(where: "id = ?", .integer(id))
    }

    private func fetchAccount(where condition: String, _ argument: SQLValue) throws -> Account? {
        let rows = try connection.fetchRows(
            """
            SELECT id, username, passwordHash, passwordAlgorithm, credentialVersion, emailUpdates
            FROM accounts WHERE \(condition)
            """, [argument])
        guard let row = rows.first else { return nil }
        guard let id = row[0].int64Value, let username = row[1].stringValue, let hash = row[2].stringValue,
            let algorithm = row[3].stringValue, let version = row[4].int64Value
        else { throw StorageError.corruptRow(table: "accounts", reason: "a required column is NULL") }
        return Account(
            id: id, username: username, passwordHash: hash, passwordAlgorithm: algorithm, credentialVersion: version,
            emailUpdates: row[5].int64Value.map { $0 != 0 } ?? false)
    }

    func changePassword(userID: Int64, passwordHash: String, passwordAlgorithm: String) throws -> Bool {
        try connection.transaction {
            try connection.execute(
                """
                UPDATE accounts SET passwordHash = ?, passwordAlgorithm = ?, credentialVersion = credentialVersion + 1
                WHERE id = ?
                """, [.text(passwordHash), .text(passwordAlgorithm), .integer(userID)])
            let changed = connection.changes > 0
            try connection.execute("DELETE FROM passwordResets WHERE userID = ?", [.integer(userID)])
            return changed
        }
    }

    func setEmailUpdates(_ emailUpdates: Bool, userID: Int64) throws -> Bool {
        try connection.transaction {
            try connection.execute(
                "UPDATE accounts SET emailUpdates = ? WHERE id = ?", [.bool(emailUpdates), .integer(userID)])
            return connection.changes > 0
        }
    }

    func savePasswordReset(tokenHash: Data, userID: Int64, expiry: Int64) throws {
        let now = clock.milliseconds()
        try connection.transaction {
            try connection.execute("DELETE FROM passwordResets WHERE expiry < ?", [.integer(now)])
            try connection.execute(
                "INSERT INTO passwordResets (tokenHash, userID, expiry) VALUES (?, ?, ?)",
                [.blob(tokenHash), .integer(userID), .integer(expiry)])
        }
    }

    func takePasswordReset(tokenHash: Data, now: Int64) throws -> Int64? {
        let rows = try connection.fetchRows(
            "DELETE FROM passwordResets WHERE tokenHash = ? RETURNING userID, expiry", [.blob(tokenHash)])
        guard let row = rows.first, let userID = row[0].int64Value, let expiry = row[1].int64Value, now < expiry
        else { return nil }
        return userID
    }

    // MARK: Blobs

    func blobs(userID: Int64) throws -> [BlobRecord] {
        try connection.fetchRows(
            "SELECT name, contentType, byteCount, md5, dateCreated FROM blobs WHERE userID = ? ORDER BY name",
            [.integer(userID)]
        ).map(Self.blobRecord)
    }

    func blob(named name: String, userID: Int64) throws -> BlobRecord? {
        try connection.fetchRows(
            "SELECT name, contentType, byteCount, md5, dateCreated FROM blobs WHERE userID = ? AND name = ?",
            [.integer(userID), .text(name)]
        ).first.map(Self.blobRecord)
    }

    private static func blobRecord(_ row: [SQLValue]) throws -> BlobRecord {
        guard let name = row[0].stringValue, let type = row[1].stringValue, let count = row[2].int64Value,
            let md5 = row[3].stringValue, let created = row[4].int64Value
        else { throw StorageError.corruptRow(table: "blobs", reason: "a required column is NULL") }
        return BlobRecord(name: name, contentType: type, byteCount: count, md5: md5, dateCreated: created)
    }

    func saveBlob(_ blob: BlobRecord, userID: Int64) throws {
        try connection.transaction {
            try connection.execute(
                """
                INSERT INTO blobs (userID, name, contentType, byteCount, md5, dateCreated) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (userID, name) DO UPDATE SET contentType = excluded.contentType,
                    byteCount = excluded.byteCount, md5 = excluded.md5, dateCreated = excluded.dateCreated
                """,
                [
                    .integer(userID), .text(blob.name), .text(blob.contentType), .integer(blob.byteCount),
                    .text(blob.md5), .integer(blob.dateCreated),
                ])
        }
    }

    func deleteBlob(named name: String, userID: Int64) throws -> Bool {
        try connection.transaction {
            try connection.execute("DELETE FROM blobs WHERE userID = ? AND name = ?", [.integer(userID), .text(name)])
            return connection.changes > 0
        }
    }
}

extension SQLValue {
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }

    static func optional(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
    static func optional(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    static func optional(_ value: Data?) -> SQLValue { value.map { .blob($0) } ?? .null }
    static func optional(_ value: Bool?) -> SQLValue { value.map { .bool($0) } ?? .null }

    var int64Value: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var stringValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var dataValue: Data? {
        switch self {
        case .blob(let value): return value
        case .text(let value): return Data(value.utf8)
        default: return nil
        }
    }
}
