import Foundation
import QSData
import Testing

/// Opening is safe on files that are not the app's, on brand-new files opened by several
/// connections at once, and on databases that can only be read.
@MainActor
@Suite struct OpeningTests {
    /// A schema with a migration, so that an open of a foreign file would have work to do.
    static func schemaWithMigration() throws -> QSSchema {
        try QSSchema(creationSQL: Fixtures.schemaSQL, migrations: [QSMigration(version: 1, sql: "CREATE TABLE extra (x);")])
    }

    @Test func aForeignSQLiteFileIsLeftByteIdentical() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        do {
            let foreign = try SQLiteConnection(path: url.path)
            try foreign.executeScript("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup');")
        }
        let before = try Data(contentsOf: url)
        for schema in [try QSSchema(creationSQL: Fixtures.schemaSQL), try Self.schemaWithMigration()] {
            await #expect(throws: QSDataError.self) {
                _ = try await QSStore.open(at: url, model: Fixtures.model(), schema: schema, types: Fixtures.allTypes)
            }
            #expect(try Data(contentsOf: url) == before)
            for suffix in ["-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: url.path + suffix), "\(suffix) left behind")
            }
        }
    }

    @Test func concurrentFirstOpensOfANewDatabaseAllSucceed() async throws {
        for _ in 0..<10 {
            let url = Fixtures.temporaryDatabaseURL()
            let schema = try Self.schemaWithMigration()
            let opened = try await Self.openAtOnce(url: url, schema: schema, count: 6)
            #expect(opened == 6)
            let store = try await QSStore.open(at: url, model: Fixtures.model(), schema: schema, types: Fixtures.allTypes)
            #expect(try await store.fetchRows("PRAGMA journal_mode") == [[.text("wal")]])
            #expect(try await store.fetchRows("PRAGMA user_version") == [[.integer(1)]])
            // 2 is MEMORY: a bulk write's statement journal stays in memory.
            #expect(try await store.fetchRows("PRAGMA temp_store") == [[.integer(2)]])
            try await store.close()
        }
    }

    /// Opens the database `count` times at once, each with its own connection; how many opened.
    nonisolated static func openAtOnce(url: URL, schema: QSSchema, count: Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let store = try await QSStore.open(at: url, model: Fixtures.model(), schema: schema, types: Fixtures.allTypes)
                    try await store.close()
                    return 1
                }
            }
            var opened = 0
            for try await one in group { opened += one }
            return opened
        }
    }

    /// SQLite needs a shared-memory file beside a WAL database even to read it; when it can't
    /// make one (a read-only folder; here, a folder standing in its place so that the test also
    /// holds when run as root), the database is opened read-only instead of not at all.
    @Test func aWALDatabaseWhoseFolderCantBeWrittenCanBeRead() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await Fixtures.openStore(url: url)
        try store.save(Tag(name: "Kept"))
        try await store.close()
        try FileManager.default.createDirectory(atPath: url.path + "-shm", withIntermediateDirectories: false)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }

        let reader = try await Fixtures.openStore(url: url)
        #expect(try await reader.fetch(Tag.self, where: "1").map(\.name) == ["Kept"])
        await #expect(throws: (any Error).self) {
            try reader.save(Tag(name: "New"))
            try await reader.flush()
        }
        try await reader.close()
    }
}
