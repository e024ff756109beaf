import Foundation
import Logging
import PostgresNIO
import QSDataSync
import SyncServerKit
import Testing

/// A live server for tests on 127.0.0.1 and a free port (SQLite in a temporary file unless
/// told otherwise), with a cheap password hash.
enum TestServer {
    static func start(_ database: SyncDatabase = .sqlite(path: TestFiles.temporaryPath())) async throws -> RunningSyncServer {
        var logger = Logger(label: "qsdata-sync-server-tests")
        logger.logLevel = .warning
        return try await RunningSyncServer.start(SyncServer(database: database, host: "127.0.0.1", port: 0, bcryptCost: 4, logger: logger))
    }
}

enum TestFiles {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("qsdata-sync-server-\(UUID().uuidString).sqlite").path
    }
}

/// The PostgreSQL the tests may use: `VESPER_TEST_POSTGRES_URL` (CI's .ci/postgres sets it);
/// with `VESPER_REQUIRE_POSTGRES=1` a missing one fails the tests instead of skipping them.
enum TestPostgres {
    static let url = ProcessInfo.processInfo.environment["VESPER_TEST_POSTGRES_URL"]
    static let required = ProcessInfo.processInfo.environment["VESPER_REQUIRE_POSTGRES"] == "1"
    static var isAvailable: Bool { url != nil || required }

    /// A PostgreSQL storage on a schema of its own (so tests don't see each other's data), with
    /// its pool running until `body` returns.
    static func withStorage<Result: Sendable>(
        beforeCommit: @escaping @Sendable () async -> Void = {}, _ body: (PostgresSyncStorage) async throws -> Result
    ) async throws -> Result {
        let base = try #require(url, "VESPER_TEST_POSTGRES_URL is not set")
        let schema = "sync_test_\(UUID().uuidString.prefix(8).lowercased())"
        var logger = Logger(label: "postgres-tests")
        logger.logLevel = .warning
        // The schema is made first, then a pool whose connections use it.
        let setup = PostgresClient(configuration: try PostgresSyncStorage.configuration(base), backgroundLogger: logger)
        let setupTask = Task { await setup.run() }
        try await setup.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: logger)
        setupTask.cancel()
        var configuration = try PostgresSyncStorage.configuration(base)
        configuration.options.additionalStartupParameters.append(("search_path", schema))
        configuration.options.maximumConnections = 60
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let run = Task { await client.run() }
        defer { run.cancel() }
        let storage = PostgresSyncStorage(client: client, logger: logger, beforeCommit: beforeCommit)
        try await storage.prepare()
        return try await body(storage)
    }
}

/// Stamps for tests: milliseconds from a fixed time, from replica `a` or `b`.
enum Stamps {
    static let a = SyncReplicaID(text: "000000000000000a")!
    static let b = SyncReplicaID(text: "000000000000000b")!
    static let base: Int64 = 1_790_000_000_000

    static func at(_ offset: Int64, _ replica: SyncReplicaID = a, counter: Int = 0) -> SyncStamp {
        SyncStamp(milliseconds: base + offset, counter: counter, replica: replica)
    }
}
