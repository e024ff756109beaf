import ExampleTestSupport
import Foundation
import Logging
import PostgresNIO
import QSData
import Testing

@testable import VesperServerKit

/// The storage engines every server suite runs against: SQLite always; PostgreSQL when
/// `VESPER_TEST_POSTGRES_URL` names a server (`.ci/run` starts one), or when
/// `VESPER_REQUIRE_POSTGRES=1` says it must (CI), in which case a missing URL fails the tests.
enum Engine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static let postgresURL = ProcessInfo.processInfo.environment["VESPER_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let postgresRequired = ProcessInfo.processInfo.environment["VESPER_REQUIRE_POSTGRES"] == "1"
    static let postgresSkipMessage: Comment = """
        PostgreSQL tests skipped: set VESPER_TEST_POSTGRES_URL=postgres://user@127.0.0.1:port/database \
        (`.ci/postgres` starts a throwaway server)
        """

    static let available: [Engine] = postgresURL != nil || postgresRequired ? [.sqlite, .postgres] : [.sqlite]
}

enum TestStoreError: Error, CustomStringConvertible {
    case postgresMissing

    var description: String {
        "VESPER_REQUIRE_POSTGRES=1 but VESPER_TEST_POSTGRES_URL is not set: PostgreSQL tests cannot run"
    }
}

/// One test's database: a SQLite file in a fresh folder, or a fresh schema in the test
/// PostgreSQL database. Several servers may share one store (restarts, several instances).
final class TestStore: Sendable {
    let engine: Engine
    let folder: URL
    let database: VesperDatabase
    private let schema: VesperTestSchema?

    private init(engine: Engine, folder: URL, database: VesperDatabase, schema: VesperTestSchema?) {
        self.engine = engine
        self.folder = folder
        self.database = database
        self.schema = schema
    }

    static func make(_ engine: Engine) async throws -> TestStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vesper-server-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch engine {
        case .sqlite:
            return TestStore(
                engine: engine, folder: folder,
                database: .sqlite(path: folder.appendingPathComponent("vesper.sqlite").path), schema: nil)
        case .postgres:
            guard let url = Engine.postgresURL else { throw TestStoreError.postgresMissing }
            let schema = try await withDeadline(.seconds(120), "creating a test schema") {
                try await VesperTestSchema.create(serverURL: url)
            }
            return TestStore(engine: engine, folder: folder, database: schema.database, schema: schema)
        }
    }

    /// Drops the schema (PostgreSQL) and removes the folder; a drop that never finishes is a
    /// test failure rather than a hang.
    func remove() async {
        do {
            try await withDeadline(.seconds(120), "dropping the test schema") { [schema] in try? await schema?.drop() }
        } catch {
            Issue.record(error)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Raw SQL against the store, each value as QSData's `SQLValue` (PostgreSQL's booleans as 0/1).
    func rows(_ sql: String) async throws -> [[SQLValue]] {
        switch database {
        case .sqlite(let path): return try DatabaseInspector(path: path).rows(sql)
        case .postgres: return try await schema?.rows(sql) ?? []
        }
    }

    /// A storage on this store, running and migrated, as a server instance would have it;
    /// `body` gets it, then the storage's connections close.
    func withStorage<Result>(
        cipher: TextCipher = TextCipher(keys: [0: ServerKeys(secret: "x").defaultTextKey], currentKeyID: 0),
        _ body: (any VesperStorage) async throws -> Result
    ) async throws -> Result {
        let storage: any VesperStorage
        switch database {
        case .sqlite(let path):
            storage = try SQLiteVesperStorage(path: path, cipher: cipher, clock: .system)
        case .postgres(let url):
            storage = PostgresVesperStorage(
                client: PostgresClient(configuration: try VesperDatabase.postgresConfiguration(url)), cipher: cipher,
                clock: .system, logger: Logger(label: "test"))
        }
        let connections = Task { await storage.run() }
        defer { connections.cancel() }
        try await withDeadline(.seconds(120), "migrating the storage") { try await storage.prepare() }
        return try await body(storage)
    }
}
