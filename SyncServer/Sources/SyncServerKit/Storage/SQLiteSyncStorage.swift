import Foundation
import QSData
import QSDataSync

/// The zero-setup storage: one SQLite file, one server instance. Calls are serialised on the
/// actor's own queue, so a push's read-merge-write is one transaction nothing interleaves with.
public actor SQLiteSyncStorage: SyncStorage {
    private let executor = SerialQueueExecutor(label: "qsdata-sync-server.sqlite")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let connection: SQLiteConnection
    private let path: String

    static let schema = """
        CREATE TABLE IF NOT EXISTS server (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS accounts (
            id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE, passwordHash TEXT NOT NULL,
            lastSequence INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE IF NOT EXISTS sessions (
            tokenHash TEXT PRIMARY KEY, accountID INTEGER NOT NULL REFERENCES accounts(id), expiresAt REAL NOT NULL);
        CREATE TABLE IF NOT EXISTS records (
            accountID INTEGER NOT NULL, tableName TEXT NOT NULL, id TEXT NOT NULL, sequence INTEGER NOT NULL, record TEXT NOT NULL,
            PRIMARY KEY (accountID, tableName, id)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS recordsBySequence ON records (accountID, sequence);
        CREATE TABLE IF NOT EXISTS replicas (
            accountID INTEGER NOT NULL, replica TEXT NOT NULL, position INTEGER NOT NULL, seenAt REAL NOT NULL, lastPush INTEGER,
            PRIMARY KEY (accountID, replica)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS blobs (
            accountID INTEGER NOT NULL, sha256 TEXT NOT NULL, uploadedAt INTEGER NOT NULL, bytes BLOB,
            PRIMARY KEY (accountID, sha256)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS blobParts (
            accountID INTEGER NOT NULL, sha256 TEXT NOT NULL, part INTEGER NOT NULL, bytes BLOB NOT NULL,
            PRIMARY KEY (accountID, sha256, part)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS groups (
            space INTEGER PRIMARY KEY REFERENCES accounts(id), publicID TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
            ownerID INTEGER NOT NULL REFERENCES accounts(id));
        CREATE TABLE IF NOT EXISTS groupMembers (
            space INTEGER NOT NULL REFERENCES groups(space), accountID INTEGER NOT NULL REFERENCES accounts(id),
            PRIMARY KEY (space, accountID)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS groupMembersByAccount ON groupMembers (accountID);
        """

    /// Columns added since the first version, for databases made before them.
    static let addedColumns = [
        (table: "accounts", column: "collectedThrough", definition: "INTEGER NOT NULL DEFAULT 0"),
        // Whether the record holds something collection removes (a deletion, a child taken out);
        // records from before the column are looked at once.
        (table: "records", column: "collectable", definition: "INTEGER NOT NULL DEFAULT 1"),
    ]

    public init(path: String) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            // Readable by the server's user only; a failure shows as SQLite's open error below.
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        do {
            connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA busy_timeout = 5000")
            let tables = try connection.fetchRows("SELECT name FROM sqlite_master WHERE type = 'table'")
                .compactMap { row -> String? in if case .text(let name) = row.first { name } else { nil } }
            if !tables.isEmpty, !tables.contains("records") { throw SyncStorageError.notASyncServerDatabase(path: path) }
            try connection.executeScript(Self.schema)
            for added in Self.addedColumns {
                let columns = try connection.fetchRows("SELECT name FROM pragma_table_info(?)", [.text(added.table)])
                if !columns.contains([.text(added.column)]) {
                    try connection.execute("ALTER TABLE \(added.table) ADD COLUMN \(added.column) \(added.definition)")
                }
            }
            try connection.execute(
                "INSERT OR IGNORE INTO server (key, value) VALUES ('databaseID', ?)", [.text(UUID().uuidString)])
        } catch let error as SQLiteError where error.code == 26 {
            throw SyncStorageError.notASyncServerDatabase(path: path)
        }
    }

    public func prepare() async throws {}

    public func databaseID() throws -> String {
        guard case .text(let id) = try connection.fetchValue("SELECT value FROM server WHERE key = 'databaseID'") else {
            throw SyncStorageError.notASyncServerDatabase(path: path)
        }
        return id
    }

    public func createAccount(username: String, passwordHash: String) throws {
        do {
            try connection.execute("INSERT INTO accounts (username, passwordHash) VALUES (?, ?)", [.text(username), .text(passwordHash)])
        } catch let error as SQLiteError where error.code & 0xFF == 19 {
            throw SyncStorageError.usernameTaken
        }
    }

    public func account(username: String) throws -> StoredAccount? {
        let rows = try connection.fetchRows("SELECT id, passwordHash FROM accounts WHERE username = ?", [.text(username)])
        guard let row = rows.first, case .integer(let id) = row[0], case .text(let hash) = row[1] else { return nil }
        return StoredAccount(id: id, username: username, passwordHash: hash)
    }

    public func saveSession(tokenHash: String, accountID: Int64, expiresAt: Date) throws {
        try connection.execute(
            "INSERT INTO sessions (tokenHash, accountID, expiresAt) VALUES (?, ?, ?)",
            [.text(tokenHash), .integer(accountID), .real(expiresAt.timeIntervalSince1970)])
    }

    public func accountID(forSession tokenHash: String, now: Date) throws -> Int64? {
        let value = try connection.fetchValue(
            "SELECT accountID FROM sessions WHERE tokenHash = ? AND expiresAt > ?", [.text(tokenHash), .real(now.timeIntervalSince1970)])
        if case .integer(let id) = value { return id }
        return nil
    }

    public func push(_ changes: [SyncChange], accountID: Int64, base: Int64, replica: SyncReplicaID, number: Int64?) throws -> SyncPushResponse {
        try connection.transaction {
            let account = try connection.fetchRows("SELECT lastSequence, collectedThrough FROM accounts WHERE id = ?", [.integer(accountID)])
            guard let row = account.first, case .integer(let last) = row[0], case .integer(let collected) = row[1] else {
                return SyncPushResponse(received: 0, applied: 0)
            }
            if base < collected { throw SyncStorageError.resyncRequired }
            var merge = PushMerge(existing: try read(PushMerge.keys(of: changes), accountID: accountID), lastSequence: last)
            merge.merge(changes)
            let write = try connection.statement(
                "INSERT OR REPLACE INTO records (accountID, tableName, id, sequence, record, collectable) VALUES (?, ?, ?, ?, ?, ?)")
            for key in merge.changed {
                guard let record = merge.records[key] else { continue }
                try write.run([
                    .integer(accountID), .text(key.table), .text(key.id), .integer(record.sequence), .text(try record.json()),
                    .integer(record.hasSomethingToCollect ? 1 : 0),
                ])
            }
            try connection.execute("UPDATE accounts SET lastSequence = ? WHERE id = ?", [.integer(merge.lastSequence), .integer(accountID)])
            if let number {
                // A replica first heard of here has pulled nothing: it holds back no collection.
                try connection.execute("""
                    INSERT INTO replicas (accountID, replica, position, seenAt, lastPush) VALUES (?, ?, 0, 0, ?)
                    ON CONFLICT (accountID, replica) DO UPDATE SET lastPush = max(coalesce(lastPush, 0), excluded.lastPush)
                    """, [.integer(accountID), .text(replica.text), .integer(number)])
            }
            return SyncPushResponse(received: merge.received, applied: merge.applied)
        }
    }

    private func read(_ keys: [PushMerge.Key], accountID: Int64) throws -> [PushMerge.Key: ServerRecord] {
        var records: [PushMerge.Key: ServerRecord] = [:]
        let select = try connection.statement("SELECT record FROM records WHERE accountID = ? AND tableName = ? AND id = ?")
        for key in keys {
            try select.bind([.integer(accountID), .text(key.table), .text(key.id)])
            defer { select.reset() }
            if try select.step(), let json = select.text(at: 0) {
                records[key] = try ServerRecord.decode(json, table: key.table, id: key.id)
            }
        }
        return records
    }

    public func pull(accountID: Int64, after: Int64, limit: Int) throws -> PulledRecords {
        let rows = try connection.fetchRows(
            "SELECT tableName, id, record FROM records WHERE accountID = ? AND sequence > ? ORDER BY sequence LIMIT ?",
            [.integer(accountID), .integer(after), .integer(Int64(limit) + 1)])
        var pulled = PulledRecords(records: [], last: after, more: rows.count > limit)
        for row in rows.prefix(limit) {
            guard case .text(let table) = row[0], case .text(let idJSON) = row[1], case .text(let json) = row[2],
                  let id = SyncID(json: idJSON)
            else { throw SyncStorageError.unreadableRecord(table: "\(row[0])", id: "\(row[1])") }
            let record = try ServerRecord.decode(json, table: table, id: idJSON)
            pulled.records.append((table, id, record))
            pulled.last = record.sequence
        }
        pulled.collectedThrough = try collectedThrough(accountID: accountID)
        return pulled
    }

    public func recordPull(accountID: Int64, replica: SyncReplicaID, position: Int64, at date: Date) throws -> Int64? {
        try connection.execute("""
            INSERT INTO replicas (accountID, replica, position, seenAt) VALUES (?, ?, ?, ?)
            ON CONFLICT (accountID, replica) DO UPDATE SET position = excluded.position, seenAt = excluded.seenAt
            """, [.integer(accountID), .text(replica.text), .integer(position), .real(date.timeIntervalSince1970)])
        let value = try connection.fetchValue(
            "SELECT lastPush FROM replicas WHERE accountID = ? AND replica = ?", [.integer(accountID), .text(replica.text)])
        if case .integer(let number) = value { return number }
        return nil
    }

    public func collect(accountID: Int64, activeSince: Date) throws -> SyncCollection {
        try connection.transaction {
            let account = try connection.fetchRows("SELECT lastSequence, collectedThrough FROM accounts WHERE id = ?", [.integer(accountID)])
            guard let row = account.first, case .integer(let last) = row[0], case .integer(let collected) = row[1] else {
                return SyncCollection(through: 0)
            }
            // With no replica active, none vouches for anything: nothing is collected.
            guard case .integer(let position) = try connection.fetchValue(
                "SELECT min(position) FROM replicas WHERE accountID = ? AND seenAt >= ?",
                [.integer(accountID), .real(activeSince.timeIntervalSince1970)]) else { return SyncCollection(through: collected) }
            let horizon = min(position, last)
            var collection = SyncCollection(through: max(horizon, collected))
            guard horizon > collected else { return collection }
            let rows = try connection.fetchRows(
                "SELECT tableName, id, record FROM records WHERE accountID = ? AND sequence > ? AND sequence <= ? AND collectable = 1",
                [.integer(accountID), .integer(collected), .integer(horizon)])
            let remove = try connection.statement("DELETE FROM records WHERE accountID = ? AND tableName = ? AND id = ?")
            let rewrite = try connection.statement("UPDATE records SET record = ?, collectable = 0 WHERE accountID = ? AND tableName = ? AND id = ?")
            for row in rows {
                guard case .text(let table) = row[0], case .text(let id) = row[1], case .text(let json) = row[2] else { continue }
                let record = try ServerRecord.decode(json, table: table, id: id)
                let key: [SQLValue] = [.integer(accountID), .text(table), .text(id)]
                if let kept = record.collected() {
                    try rewrite.run([.text(try kept.json())] + key)
                    if kept != record { collection.trimmed += 1 }
                } else {
                    try remove.run(key)
                    collection.removed += 1
                }
            }
            try connection.execute("UPDATE accounts SET collectedThrough = ? WHERE id = ?", [.integer(horizon), .integer(accountID)])
            collection.blobsRemoved = try collectBlobs(accountID: accountID, horizon: horizon)
            return collection
        }
    }

    public func recordCount(accountID: Int64) throws -> Int {
        guard case .integer(let count) = try connection.fetchValue("SELECT count(*) FROM records WHERE accountID = ?", [.integer(accountID)]) else { return 0 }
        return Int(count)
    }

    public func blobStatus(accountID: Int64, sha256: String) throws -> SyncBlobStatus {
        if try connection.fetchValue("SELECT 1 FROM blobs WHERE accountID = ? AND sha256 = ? AND bytes IS NOT NULL", [.integer(accountID), .text(sha256)]) != nil {
            return SyncBlobStatus(complete: true, parts: [])
        }
        let parts = try connection.fetchRows("SELECT part FROM blobParts WHERE accountID = ? AND sha256 = ? ORDER BY part", [.integer(accountID), .text(sha256)])
            .compactMap { row -> Int? in if case .integer(let part) = row[0] { Int(part) } else { nil } }
        return SyncBlobStatus(complete: false, parts: parts)
    }

    public func storeBlobPart(accountID: Int64, sha256: String, index: Int, bytes: Data) throws {
        try connection.transaction {
            try connection.execute(
                "INSERT OR IGNORE INTO blobs (accountID, sha256, uploadedAt) SELECT id, ?, lastSequence FROM accounts WHERE id = ?",
                [.text(sha256), .integer(accountID)])
            try connection.execute(
                "INSERT OR REPLACE INTO blobParts (accountID, sha256, part, bytes) VALUES (?, ?, ?, ?)",
                [.integer(accountID), .text(sha256), .integer(Int64(index)), .blob(bytes)])
        }
    }

    public func blobParts(accountID: Int64, sha256: String, count: Int) throws -> [Data]? {
        let rows = try connection.fetchRows("SELECT bytes FROM blobParts WHERE accountID = ? AND sha256 = ? ORDER BY part", [.integer(accountID), .text(sha256)])
        guard rows.count == count else { return nil }
        return rows.compactMap { row -> Data? in if case .blob(let bytes) = row[0] { bytes } else { nil } }
    }

    public func finishBlob(accountID: Int64, sha256: String, bytes: Data?) throws {
        try connection.transaction {
            try connection.execute("DELETE FROM blobParts WHERE accountID = ? AND sha256 = ?", [.integer(accountID), .text(sha256)])
            if let bytes {
                try connection.execute("UPDATE blobs SET bytes = ? WHERE accountID = ? AND sha256 = ?", [.blob(bytes), .integer(accountID), .text(sha256)])
            } else {
                try connection.execute("DELETE FROM blobs WHERE accountID = ? AND sha256 = ?", [.integer(accountID), .text(sha256)])
            }
        }
    }

    public func blob(accountID: Int64, sha256: String) throws -> Data? {
        if case .blob(let bytes) = try connection.fetchValue(
            "SELECT bytes FROM blobs WHERE accountID = ? AND sha256 = ?", [.integer(accountID), .text(sha256)]) { return bytes }
        return nil
    }

    public func blobCount(accountID: Int64) throws -> Int {
        guard case .integer(let count) = try connection.fetchValue(
            "SELECT count(*) FROM blobs WHERE accountID = ? AND bytes IS NOT NULL", [.integer(accountID)]) else { return 0 }
        return Int(count)
    }

    /// Removes the blobs uploaded before `horizon` that no live object's record names (their
    /// SHA-256 appears in no record's JSON).
    private func collectBlobs(accountID: Int64, horizon: Int64) throws -> Int {
        let unnamed = try connection.fetchRows("""
            SELECT b.sha256 FROM blobs AS b WHERE b.accountID = ? AND b.uploadedAt <= ?
            AND NOT EXISTS (SELECT 1 FROM records AS r WHERE r.accountID = b.accountID AND instr(r.record, b.sha256) > 0)
            """, [.integer(accountID), .integer(horizon)]).compactMap { row -> String? in if case .text(let hash) = row[0] { hash } else { nil } }
        for hash in unnamed { try finishBlob(accountID: accountID, sha256: hash, bytes: nil) }
        return unnamed.count
    }

    private func collectedThrough(accountID: Int64) throws -> Int64 {
        guard case .integer(let number) = try connection.fetchValue("SELECT collectedThrough FROM accounts WHERE id = ?", [.integer(accountID)]) else { return 0 }
        return number
    }
}
