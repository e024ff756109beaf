import Foundation
import Logging
import PostgresNIO
import QSDataSync

/// Accounts and records on PostgreSQL, for any number of stateless server instances on one
/// database. A push is one transaction that first locks the account's row (`FOR UPDATE`), so
/// one account's pushes run one after another and commit in the order of the sequence numbers
/// they hand out: a pull that has seen number N never meets a smaller one later, however the
/// instances' transactions interleave. The named records are read in one statement and
/// written in one, with arrays, whatever the push's size.
public struct PostgresSyncStorage: SyncStorage {
    let client: PostgresClient
    let logger: Logger
    /// Runs inside each push's transaction before it commits (a test's delay, to commit out of order).
    let beforeCommit: @Sendable () async -> Void

    public init(client: PostgresClient, logger: Logger, beforeCommit: @escaping @Sendable () async -> Void = {}) {
        self.client = client
        self.logger = logger
        self.beforeCommit = beforeCommit
    }

    static let schema = [
        "CREATE TABLE IF NOT EXISTS sync_server (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS sync_accounts (
            id BIGSERIAL PRIMARY KEY, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
            last_sequence BIGINT NOT NULL DEFAULT 0)
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_sessions (
            token_hash TEXT PRIMARY KEY, account_id BIGINT NOT NULL REFERENCES sync_accounts(id), expires_at DOUBLE PRECISION NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_records (
            account_id BIGINT NOT NULL, table_name TEXT NOT NULL, object_id TEXT NOT NULL, sequence BIGINT NOT NULL, record TEXT NOT NULL,
            PRIMARY KEY (account_id, table_name, object_id))
        """,
        "CREATE INDEX IF NOT EXISTS sync_records_by_sequence ON sync_records (account_id, sequence)",
        """
        CREATE TABLE IF NOT EXISTS sync_replicas (
            account_id BIGINT NOT NULL, replica TEXT NOT NULL, position BIGINT NOT NULL, seen_at DOUBLE PRECISION NOT NULL, last_push BIGINT,
            PRIMARY KEY (account_id, replica))
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_blobs (
            account_id BIGINT NOT NULL, sha256 TEXT NOT NULL, uploaded_at BIGINT NOT NULL, bytes BYTEA,
            PRIMARY KEY (account_id, sha256))
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_blob_parts (
            account_id BIGINT NOT NULL, sha256 TEXT NOT NULL, part INTEGER NOT NULL, bytes BYTEA NOT NULL,
            PRIMARY KEY (account_id, sha256, part))
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_groups (
            space BIGINT PRIMARY KEY REFERENCES sync_accounts(id), public_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
            owner_id BIGINT NOT NULL REFERENCES sync_accounts(id))
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_group_members (
            space BIGINT NOT NULL REFERENCES sync_groups(space), account_id BIGINT NOT NULL REFERENCES sync_accounts(id),
            PRIMARY KEY (space, account_id))
        """,
        "CREATE INDEX IF NOT EXISTS sync_group_members_by_account ON sync_group_members (account_id)",
    ]

    /// Columns added since the first version, for databases made before them.
    static let addedColumns = [
        ("sync_accounts", "collected_through", "BIGINT NOT NULL DEFAULT 0"),
        // Whether the record holds something collection removes (a deletion, a child taken out);
        // records from before the column are looked at once.
        ("sync_records", "collectable", "BOOLEAN NOT NULL DEFAULT TRUE"),
    ]

    public func prepare() async throws {
        // Several instances may start at once: the schema is made under an advisory lock.
        try await transaction { connection in
            // No statement timeout here: the lock may wait for another instance's preparation,
            // and adding a column for every push running on the table.
            try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
            try await connection.query("SELECT pg_advisory_xact_lock(727275)", logger: logger)
            for statement in Self.schema { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            // Added since the first version. (ALTER TABLE locks the table even when the column
            // exists, and would wait for every running push: only when it is missing.)
            for (table, column, definition) in Self.addedColumns {
                var hasColumn = false
                for try await _ in try await connection.query(
                    "SELECT 1 FROM information_schema.columns WHERE table_name = \(table) AND column_name = \(column)",
                    logger: logger).decode(Int.self) {
                    hasColumn = true
                }
                if !hasColumn {
                    try await connection.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(table) ADD COLUMN \(column) \(definition)"), logger: logger)
                }
            }
            let id = UUID().uuidString
            try await connection.query(
                "INSERT INTO sync_server (key, value) VALUES ('databaseID', \(id)) ON CONFLICT DO NOTHING", logger: logger)
        }
    }

    public func databaseID() async throws -> String {
        let rows = try await client.query("SELECT value FROM sync_server WHERE key = 'databaseID'", logger: logger)
        for try await id in rows.decode(String.self) { return id }
        throw SyncStorageError.notASyncServerDatabase(path: "PostgreSQL")
    }

    public func createAccount(username: String, passwordHash: String) async throws {
        let rows = try await client.query(
            """
            INSERT INTO sync_accounts (username, password_hash) VALUES (\(username), \(passwordHash))
            ON CONFLICT (username) DO NOTHING RETURNING id
            """, logger: logger)
        for try await _ in rows.decode(Int64.self) { return }
        throw SyncStorageError.usernameTaken
    }

    public func account(username: String) async throws -> StoredAccount? {
        let rows = try await client.query("SELECT id, password_hash FROM sync_accounts WHERE username = \(username)", logger: logger)
        for try await (id, hash) in rows.decode((Int64, String).self) { return StoredAccount(id: id, username: username, passwordHash: hash) }
        return nil
    }

    public func saveSession(tokenHash: String, accountID: Int64, expiresAt: Date) async throws {
        try await client.query(
            "INSERT INTO sync_sessions (token_hash, account_id, expires_at) VALUES (\(tokenHash), \(accountID), \(expiresAt.timeIntervalSince1970))",
            logger: logger)
    }

    public func accountID(forSession tokenHash: String, now: Date) async throws -> Int64? {
        let rows = try await client.query(
            "SELECT account_id FROM sync_sessions WHERE token_hash = \(tokenHash) AND expires_at > \(now.timeIntervalSince1970)",
            logger: logger)
        for try await id in rows.decode(Int64.self) { return id }
        return nil
    }

    public func push(_ changes: [SyncChange], accountID: Int64, base: Int64, replica: SyncReplicaID, number: Int64?) async throws -> SyncPushResponse {
        let keys = PushMerge.keys(of: changes)
        let beforeCommit = beforeCommit
        return try await transaction { connection in
            guard let (last, collected) = try await lockAccount(accountID, on: connection) else { return SyncPushResponse(received: 0, applied: 0) }
            if base < collected { throw SyncStorageError.resyncRequired }
            var existing: [PushMerge.Key: ServerRecord] = [:]
            let tables = keys.map(\.table), ids = keys.map(\.id)
            let rows = try await connection.query(
                """
                SELECT r.table_name, r.object_id, r.record FROM sync_records AS r
                JOIN unnest(\(tables)::text[], \(ids)::text[]) AS k(table_name, object_id)
                    ON r.table_name = k.table_name AND r.object_id = k.object_id
                WHERE r.account_id = \(accountID)
                """, logger: logger)
            for try await (table, id, json) in rows.decode((String, String, String).self) {
                existing[PushMerge.Key(table: table, id: id)] = try ServerRecord.decode(json, table: table, id: id)
            }
            var merge = PushMerge(existing: existing, lastSequence: last)
            merge.merge(changes)
            let changed = merge.changed.compactMap { key in merge.records[key].map { (key, $0) } }
            if !changed.isEmpty {
                let changedTables = changed.map(\.0.table), changedIDs = changed.map(\.0.id)
                let sequences = changed.map(\.1.sequence)
                let documents = try changed.map { try $0.1.json() }
                let collectable = changed.map(\.1.hasSomethingToCollect)
                try await connection.query(
                    """
                    INSERT INTO sync_records (account_id, table_name, object_id, sequence, record, collectable)
                    SELECT \(accountID), * FROM unnest(
                        \(changedTables)::text[], \(changedIDs)::text[], \(sequences)::bigint[], \(documents)::text[], \(collectable)::boolean[])
                    ON CONFLICT (account_id, table_name, object_id) DO UPDATE
                    SET sequence = excluded.sequence, record = excluded.record, collectable = excluded.collectable
                    """, logger: logger)
            }
            try await connection.query("UPDATE sync_accounts SET last_sequence = \(merge.lastSequence) WHERE id = \(accountID)", logger: logger)
            if let number {
                // A replica first heard of here has pulled nothing: it holds back no collection.
                try await connection.query(
                    """
                    INSERT INTO sync_replicas (account_id, replica, position, seen_at, last_push) VALUES (\(accountID), \(replica.text), 0, 0, \(number))
                    ON CONFLICT (account_id, replica) DO UPDATE SET last_push = GREATEST(COALESCE(sync_replicas.last_push, 0), excluded.last_push)
                    """, logger: logger)
            }
            await beforeCommit()
            return SyncPushResponse(received: merge.received, applied: merge.applied)
        }
    }

    public func pull(accountID: Int64, after: Int64, limit: Int) async throws -> PulledRecords {
        let rows = try await client.query(
            """
            SELECT table_name, object_id, record FROM sync_records
            WHERE account_id = \(accountID) AND sequence > \(after) ORDER BY sequence LIMIT \(limit + 1)
            """, logger: logger)
        var pulled = PulledRecords(records: [], last: after, more: false)
        for try await (table, idJSON, json) in rows.decode((String, String, String).self) {
            guard pulled.records.count < limit else {
                pulled.more = true
                continue
            }
            guard let id = SyncID(json: idJSON) else { throw SyncStorageError.unreadableRecord(table: table, id: idJSON) }
            let record = try ServerRecord.decode(json, table: table, id: idJSON)
            pulled.records.append((table, id, record))
            pulled.last = record.sequence
        }
        // Read after the records: a collection that committed before or during their read shows here.
        for try await number in try await client.query(
            "SELECT collected_through FROM sync_accounts WHERE id = \(accountID)", logger: logger).decode(Int64.self) {
            pulled.collectedThrough = number
        }
        return pulled
    }

    public func recordPull(accountID: Int64, replica: SyncReplicaID, position: Int64, at date: Date) async throws -> Int64? {
        let rows = try await client.query(
            """
            INSERT INTO sync_replicas (account_id, replica, position, seen_at) VALUES (\(accountID), \(replica.text), \(position), \(date.timeIntervalSince1970))
            ON CONFLICT (account_id, replica) DO UPDATE SET position = excluded.position, seen_at = excluded.seen_at
            RETURNING last_push
            """, logger: logger)
        for try await number in rows.decode(Int64?.self) { return number }
        return nil
    }

    public func collect(accountID: Int64, activeSince: Date) async throws -> SyncCollection {
        try await transaction { connection in
            // The account's row is locked as a push locks it: no push interleaves with the removal.
            guard let (last, collected) = try await lockAccount(accountID, on: connection) else { return SyncCollection(through: 0) }
            // With no replica active, none vouches for anything: nothing is collected.
            var active: Int64?
            for try await position in try await connection.query(
                "SELECT min(position) FROM sync_replicas WHERE account_id = \(accountID) AND seen_at >= \(activeSince.timeIntervalSince1970)",
                logger: logger).decode(Int64?.self) {
                active = position
            }
            guard let active else { return SyncCollection(through: collected) }
            let horizon = min(active, last)
            var collection = SyncCollection(through: max(horizon, collected))
            guard horizon > collected else { return collection }
            var removedTables: [String] = [], removedIDs: [String] = []
            var trimmedTables: [String] = [], trimmedIDs: [String] = [], trimmedDocuments: [String] = []
            let rows = try await connection.query(
                """
                SELECT table_name, object_id, record FROM sync_records
                WHERE account_id = \(accountID) AND sequence > \(collected) AND sequence <= \(horizon) AND collectable
                """, logger: logger)
            for try await (table, id, json) in rows.decode((String, String, String).self) {
                let record = try ServerRecord.decode(json, table: table, id: id)
                if let kept = record.collected() {
                    if kept != record { collection.trimmed += 1 }
                    trimmedTables.append(table)
                    trimmedIDs.append(id)
                    trimmedDocuments.append(try kept.json())
                } else {
                    removedTables.append(table)
                    removedIDs.append(id)
                }
            }
            if !removedIDs.isEmpty {
                try await connection.query(
                    """
                    DELETE FROM sync_records AS r USING unnest(\(removedTables)::text[], \(removedIDs)::text[]) AS k(table_name, object_id)
                    WHERE r.account_id = \(accountID) AND r.table_name = k.table_name AND r.object_id = k.object_id
                    """, logger: logger)
            }
            if !trimmedIDs.isEmpty {
                try await connection.query(
                    """
                    UPDATE sync_records AS r SET record = k.record, collectable = FALSE
                    FROM unnest(\(trimmedTables)::text[], \(trimmedIDs)::text[], \(trimmedDocuments)::text[]) AS k(table_name, object_id, record)
                    WHERE r.account_id = \(accountID) AND r.table_name = k.table_name AND r.object_id = k.object_id
                    """, logger: logger)
            }
            try await connection.query("UPDATE sync_accounts SET collected_through = \(horizon) WHERE id = \(accountID)", logger: logger)
            // Blobs uploaded before the horizon that no live object's record names.
            let blobs = try await connection.query(
                """
                DELETE FROM sync_blobs AS b WHERE b.account_id = \(accountID) AND b.uploaded_at <= \(horizon)
                AND NOT EXISTS (SELECT 1 FROM sync_records AS r WHERE r.account_id = b.account_id AND strpos(r.record, b.sha256) > 0)
                RETURNING b.sha256
                """, logger: logger)
            var goneBlobs: [String] = []
            for try await hash in blobs.decode(String.self) { goneBlobs.append(hash) }
            if !goneBlobs.isEmpty {
                try await connection.query(
                    "DELETE FROM sync_blob_parts WHERE account_id = \(accountID) AND sha256 = ANY(\(goneBlobs)::text[])", logger: logger)
            }
            collection.blobsRemoved = goneBlobs.count
            collection.removed = removedIDs.count
            return collection
        }
    }

    public func recordCount(accountID: Int64) async throws -> Int {
        for try await count in try await client.query(
            "SELECT count(*) FROM sync_records WHERE account_id = \(accountID)", logger: logger).decode(Int64.self) {
            return Int(count)
        }
        return 0
    }

    /// Runs `body` in a transaction (``PostgresTransaction``); its errors come as it threw them.
    func transaction<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        try await PostgresTransaction(client: client, logger: logger).run(body)
    }

    /// Locks the account's row for the transaction; its last sequence number and how far it was collected.
    private func lockAccount(_ accountID: Int64, on connection: PostgresConnection) async throws -> (last: Int64, collected: Int64)? {
        let rows = try await connection.query(
            "SELECT last_sequence, collected_through FROM sync_accounts WHERE id = \(accountID) FOR UPDATE", logger: logger)
        for try await (last, collected) in rows.decode((Int64, Int64).self) { return (last, collected) }
        return nil
    }

    /// The pool's configuration from a `postgres://user:password@host:port/database?sslmode=disable` URL.
    /// The pool's configuration for `url`; with a `statementTimeout`, PostgreSQL cancels any
    /// statement that runs longer.
    public static func configuration(_ url: String, statementTimeout: Duration? = nil) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty,
              let username = components.user, !username.isEmpty
        else { throw SyncServerError.invalidDatabaseURL(url) }
        let database = String(components.path.drop { $0 == "/" })
        let sslmode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch sslmode {
        case "disable": tls = .disable
        case "require": tls = .require(.makeClientConfiguration())
        default: tls = .prefer(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: username, password: components.password,
            database: database.isEmpty ? nil : database, tls: tls)
        // No keep-alive queries: with them postgres-nio's pool (1.33) can strand a lease request
        // behind a connection that closes (the Vesper server's tests met that hang).
        configuration.options.keepAliveBehavior = nil
        if let statementTimeout {
            let milliseconds = statementTimeout.components.seconds * 1000 + statementTimeout.components.attoseconds / 1_000_000_000_000_000
            configuration.options.additionalStartupParameters.append(("statement_timeout", String(max(milliseconds, 1))))
        }
        if let size = components.queryItems?.first(where: { $0.name == "pool_size" })?.value.flatMap(Int.init), size > 0 {
            configuration.options.maximumConnections = size
        }
        return configuration
    }
}

/// Why the server could not start.
public enum SyncServerError: Error, CustomStringConvertible {
    case invalidDatabaseURL(String)
    case didNotStart

    public var description: String {
        switch self {
        case .invalidDatabaseURL(let url): "\(url) is not a postgres://user@host:port/database URL"
        case .didNotStart: "the server did not start"
        }
    }
}
