import Foundation
import Logging
import PostgresNIO

import struct SyncServerKit.PostgresTransaction

/// The shared storage engine: PostgreSQL through postgres-nio's connection pool, for any number
/// of server instances on one database.
///
/// Each call that writes is one transaction. A sync call first checks its login and locks its
/// user's account row, taking the call's date from it (``beginUserCall(_:account:)``), so one
/// user's sync calls run one after another whichever instance serves them, while different
/// users' run in parallel.
/// All SQL is parameterised.
struct PostgresVesperStorage: VesperStorage {
    let client: PostgresClient
    let cipher: TextCipher
    let clock: ServerClock
    let logger: Logger

    func run() async {
        await client.run()
    }

    func prepare() async throws {
        try await PostgresSchema.migrate(client, clock: clock, logger: logger)
    }

    /// Runs `body` in a transaction (``PostgresTransaction``); its errors come as it threw them.
    func transaction<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        try await PostgresTransaction(client: client, logger: logger).run(body)
    }

    /// Locks the user's account row until the transaction ends and returns the call's date: the
    /// clock in milliseconds, but always later than the user's previous call's. Throws
    /// ``StorageError/revokedLogin`` when the account is gone or its credential version is not
    /// the login's.
    func beginUserCall(_ connection: PostgresConnection, account: SyncAccount) async throws -> Int64 {
        let rows = try await connection.query(
            """
            UPDATE accounts SET lastSyncDate = GREATEST(lastSyncDate + 1, \(clock.milliseconds()))
            WHERE id = \(account.id) AND credentialVersion = \(account.credentialVersion) RETURNING lastSyncDate
            """, logger: logger)
        guard let date = try await rows.collect().first?.decode(Int64.self) else { throw StorageError.revokedLogin }
        return date
    }

    // MARK: Accounts

    func createAccount(username: String, passwordHash: String, passwordAlgorithm: String, emailUpdates: Bool)
        async throws -> Int64
    {
        do {
            let rows = try await client.query(
                """
                INSERT INTO accounts (username, passwordHash, passwordAlgorithm, credentialVersion, emailUpdates,
                    dateCreated)
                VALUES (\(username), \(passwordHash), \(passwordAlgorithm), 1, \(emailUpdates), \(clock.milliseconds()))
                RETURNING id
                """, logger: logger)
            guard let id = try await rows.collect().first?.decode(Int64.self) else {
                throw StorageError.corruptRow(table: "accounts", reason: "the insert returned no ID")
            }
            return id
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            // unique_violation: the unique index makes creation atomic across instances.
            throw StorageError.usernameTaken
        }
    }

    func account(username: String) async throws -> Account? {
        try await fetchAccount(
            """
            SELECT id, username, passwordHash, passwordAlgorithm, credentialVersion, emailUpdates
            FROM accounts WHERE username = \(username)
            """)
    }

    func account(id: Int64) async throws -> Account? {
        try await fetchAccount(
            """
            SELECT id, username, passwordHash, passwordAlgorithm, credentialVersion, emailUpdates
            FROM accounts WHERE id = \(id)
            """)
    }

    private func fetchAccount(_ query: PostgresQuery) async throws -> Account? {
        guard let row = try await client.query(query, logger: logger).collect().first else { return nil }
        let (id, username, hash, algorithm, version, emailUpdates) = try row.decode(
            (Int64, String, String, String, Int64, Bool).self)
        return Account(
            id: id, username: username, passwordHash: hash, passwordAlgorithm: algorithm, credentialVersion: version,
            emailUpdates: emailUpdates)
    }

    func changePassword(userID: Int64, passwordHash: String, passwordAlgorithm: String) async throws -> Bool {
        try await transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE accounts SET passwordHash = \(passwordHash), passwordAlgorithm = \(passwordAlgorithm),
                    credentialVersion = credentialVersion + 1
                WHERE id = \(userID) RETURNING id
                """, logger: logger)
            let changed = try await rows.collect().count > 0
            try await connection.query("DELETE FROM passwordResets WHERE userID = \(userID)", logger: logger)
            return changed
        }
    }

    func setEmailUpdates(_ emailUpdates: Bool, userID: Int64) async throws -> Bool {
        let rows = try await client.query(
            "UPDATE accounts SET emailUpdates = \(emailUpdates) WHERE id = \(userID) RETURNING id", logger: logger)
        return try await rows.collect().count > 0
    }

    func savePasswordReset(tokenHash: Data, userID: Int64, expiry: Int64) async throws {
        try await transaction { connection in
            try await connection.query(
                "DELETE FROM passwordResets WHERE expiry < \(clock.milliseconds())", logger: logger)
            try await connection.query(
                "INSERT INTO passwordResets (tokenHash, userID, expiry) VALUES (\(tokenHash), \(userID), \(expiry))",
                logger: logger)
        }
    }

    func takePasswordReset(tokenHash: Data, now: Int64) async throws -> Int64? {
        let rows = try await client.query(
            "DELETE FROM passwordResets WHERE tokenHash = \(tokenHash) RETURNING userID, expiry", logger: logger)
        for try await (userID, expiry) in rows.decode((Int64, Int64).self) {
            return now < expiry ? userID : nil
        }
        return nil
    }

    // MARK: Blob metadata

    func blobs(userID: Int64) async throws -> [BlobRecord] {
        try await blobRecords(
            """
            SELECT name, contentType, byteCount, md5, dateCreated FROM blobs WHERE userID = \(userID) ORDER BY name
            """)
    }

    func blob(named name: String, userID: Int64) async throws -> BlobRecord? {
        try await blobRecords(
            """
            SELECT name, contentType, byteCount, md5, dateCreated FROM blobs
            WHERE userID = \(userID) AND name = \(name)
            """
        ).first
    }

    private func blobRecords(_ query: PostgresQuery) async throws -> [BlobRecord] {
        var records: [BlobRecord] = []
        for try await (name, type, count, md5, created) in try await client.query(query, logger: logger).decode(
            (String, String, Int64, String, Int64).self)
        {
            records.append(BlobRecord(name: name, contentType: type, byteCount: count, md5: md5, dateCreated: created))
        }
        return records
    }

    func saveBlob(_ blob: BlobRecord, userID: Int64) async throws {
        try await client.query(
            """
            INSERT INTO blobs (userID, name, contentType, byteCount, md5, dateCreated)
            VALUES (\(userID), \(blob.name), \(blob.contentType), \(blob.byteCount), \(blob.md5), \(blob.dateCreated))
            ON CONFLICT (userID, name) DO UPDATE SET contentType = excluded.contentType,
                byteCount = excluded.byteCount, md5 = excluded.md5, dateCreated = excluded.dateCreated
            """, logger: logger)
    }

    func deleteBlob(named name: String, userID: Int64) async throws -> Bool {
        let rows = try await client.query(
            "DELETE FROM blobs WHERE userID = \(userID) AND name = \(name) RETURNING name", logger: logger)
        return try await rows.collect().count > 0
    }

    // MARK: Login failures

    func loginFailures(keys: [String], since: Int64) async throws -> [String: LoginFailures] {
        let rows = try await client.query(
            """
            SELECT key, count(*), min(date) FROM loginFailures
            WHERE key = ANY(\(keys)) AND date >= \(since) GROUP BY key
            """, logger: logger)
        var result: [String: LoginFailures] = [:]
        for try await (key, count, oldest) in rows.decode((String, Int64, Int64).self) {
            result[key] = LoginFailures(count: Int(count), oldest: oldest)
        }
        return result
    }

    func recordLoginFailure(keys: [String], date: Int64, forgetBefore: Int64) async throws {
        try await transaction { connection in
            try await connection.query("DELETE FROM loginFailures WHERE date < \(forgetBefore)", logger: logger)
            try await connection.query(
                "INSERT INTO loginFailures (key, date) SELECT unnest(\(keys)::text[]), \(date)", logger: logger)
        }
    }

    func clearLoginFailures(key: String) async throws {
        try await client.query("DELETE FROM loginFailures WHERE key = \(key)", logger: logger)
    }
}
