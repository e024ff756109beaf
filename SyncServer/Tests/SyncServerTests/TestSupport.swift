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

/// The test process's databases, in a folder of its own that goes when the process exits.
enum TestFiles {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("qsdata-sync-server-tests-\(getpid())", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("could not make the tests' folder \(url.path): \(error)")
        }
        atexit {
            do {
                try FileManager.default.removeItem(at: TestFiles.folder)
            } catch {
                FileHandle.standardError.write(Data("could not remove the tests' folder \(TestFiles.folder.path): \(error)\n".utf8))
            }
        }
        return url
    }()

    static func temporaryPath() -> String {
        temporaryURL().path
    }

    static func temporaryURL() -> URL {
        folder.appendingPathComponent("\(UUID().uuidString).sqlite")
    }
}

/// The PostgreSQL the tests may use: `VESPER_TEST_POSTGRES_URL` (CI's .ci/postgres sets it);
/// with `VESPER_REQUIRE_POSTGRES=1` a missing one fails the tests instead of skipping them.
enum TestPostgres {
    static let url = ProcessInfo.processInfo.environment["VESPER_TEST_POSTGRES_URL"]
    static let required = ProcessInfo.processInfo.environment["VESPER_REQUIRE_POSTGRES"] == "1"
    static var isAvailable: Bool { url != nil || required }

    /// A PostgreSQL storage on the tests' shared database; each test keeps to accounts of its
    /// own (the storage names the account in every query, which is what isolates them). One
    /// pool serves every test of the process, started once and kept running.
    static func withStorage<Result: Sendable>(
        beforeCommit: @escaping @Sendable () async -> Void = {}, _ body: (PostgresSyncStorage) async throws -> Result
    ) async throws -> Result {
        let client = try await SharedPool.shared.client()
        var logger = Logger(label: "postgres-tests")
        logger.logLevel = .warning
        return try await body(PostgresSyncStorage(client: client, logger: logger, beforeCommit: beforeCommit))
    }
}

/// The one PostgreSQL pool of the test process: running before its first use, the tables made.
actor SharedPool {
    static let shared = SharedPool()
    private var ready: PostgresClient?

    func client() async throws -> PostgresClient {
        if let ready { return ready }
        let base = try #require(TestPostgres.url, "VESPER_TEST_POSTGRES_URL is not set")
        var logger = Logger(label: "postgres-tests")
        logger.logLevel = .warning
        var configuration = try PostgresSyncStorage.configuration(base)
        configuration.options.maximumConnections = 70
        // A busy machine (CI with builds beside it) may take long to hand over a new backend.
        configuration.options.connectTimeout = .seconds(30)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        // Runs for the rest of the process. Leased from once its task has begun (a lease made
        // before `run()` is only queued, but postgres-nio warns about it in the log).
        let (started, signal) = AsyncStream<Void>.makeStream()
        Task.detached {
            signal.yield()
            await client.run()
        }
        for await _ in started { break }
        try await Task.sleep(for: .milliseconds(20))
        try await PostgresSyncStorage(client: client, logger: logger).prepare()
        ready = client
        return client
    }
}

/// A username no other test (or earlier run on the same database) has used.
func uniqueUsername(_ name: String) -> String {
    "\(name)-\(UUID().uuidString.prefix(8).lowercased())"
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
