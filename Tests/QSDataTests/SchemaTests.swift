import Foundation
import QSData
import Testing

@MainActor
@Suite struct SchemaTests {
    @Test func aModelColumnMissingFromTheSchemaIsReportedByName() async throws {
        let sql = Fixtures.schemaSQL.replacingOccurrences(of: "archived BOOLEAN NOT NULL DEFAULT 0, ", with: "")
            .replacingOccurrences(of: "CREATE TABLE attachmentsNotesLookup (attachmentID TEXT NOT NULL,", with: "CREATE TABLE attachmentsNotesLookup (")
            .replacingOccurrences(of: ", PRIMARY KEY (attachmentID, noteID)", with: "")
        let error = await #expect(throws: QSDataError.self) {
            _ = try await QSStore.open(at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
                                       schema: QSSchema(creationSQL: sql), types: Fixtures.allTypes)
        }
        #expect(error == .schemaMismatch([
            "Note.archived: table 'notes' has no column 'archived'",
            "Note.attachments: lookup table 'attachmentsNotesLookup' has no column 'attachmentID'",
            "TimelineNote.archived: table 'notes' has no column 'archived'",
        ]))
    }

    @Test func aUniqueIDThatIsNotAKeyIsReported() async throws {
        let sql = Fixtures.schemaSQL.replacingOccurrences(of: "CREATE TABLE tags (uniqueID TEXT PRIMARY KEY,", with: "CREATE TABLE tags (uniqueID TEXT,")
        let error = await #expect(throws: QSDataError.self) {
            _ = try await QSStore.open(at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
                                       schema: QSSchema(creationSQL: sql), types: Fixtures.allTypes)
        }
        guard case .schemaMismatch(let problems) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("Tag: ") == true)
        #expect(problems.first?.contains("PRIMARY KEY or UNIQUE") == true)
    }

    @Test func aFileThatIsNotADatabaseIsRefused() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try Data(repeating: 0x42, count: 4_096).write(to: url)
        await #expect(throws: QSDataError.notADatabase(path: url.path)) {
            _ = try await Fixtures.openStore(url: url)
        }
        #expect(try Data(contentsOf: url) == Data(repeating: 0x42, count: 4_096))  // left untouched
    }

    @Test func aDatabaseInAMissingFolderCannotBeOpened() async throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/db.sqlite")
        let error = await #expect(throws: QSDataError.self) { _ = try await Fixtures.openStore(url: url) }
        guard case .cannotOpenDatabase(let path, _) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == url.path)
    }

    @Test func migrationsRunInOrderOnceEach() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let first = try QSSchema(creationSQL: "CREATE TABLE things (uniqueID INTEGER PRIMARY KEY);")
        try await openRaw(url, first)
        #expect(try await userVersion(url, first) == 0)

        let second = try QSSchema(creationSQL: first.creationSQL, migrations: [
            QSMigration(version: 1, sql: "ALTER TABLE things ADD COLUMN name TEXT;"),
            QSMigration(version: 2, sql: "CREATE INDEX thingsName ON things (name); INSERT INTO things (uniqueID, name) VALUES (1, 'one');"),
        ])
        try await openRaw(url, second)
        try await openRaw(url, second)  // a second open runs nothing again
        #expect(try await userVersion(url, second) == 2)
        let rows = try await rows(url, second, "SELECT uniqueID, name FROM things")
        #expect(rows == [[.integer(1), .text("one")]])
    }

    @Test func aFailingMigrationRollsBackAndNamesItself() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let schema = try QSSchema(creationSQL: "CREATE TABLE things (uniqueID INTEGER PRIMARY KEY);", migrations: [
            QSMigration(version: 1, name: "1-add-name.sql", sql: "ALTER TABLE things ADD COLUMN name TEXT;"),
            QSMigration(version: 2, name: "2-broken.sql", sql: "CREATE TABLE more (x); ALTER TABLE nowhere ADD COLUMN y;"),
        ])
        let error = await #expect(throws: QSDataError.self) { try await openRaw(url, schema) }
        guard case .invalidMigration(let file, let problem) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(file == "2-broken.sql")
        #expect(problem.contains("no such table: nowhere"))
        // All or nothing: the database is as it was before the open, so nothing at all (not
        // even the creation) was kept.
        #expect(try Data(contentsOf: url).isEmpty)
    }

    @Test func migrationNumbersMustBeConsecutive() {
        #expect(throws: QSDataError.invalidMigration(file: "3-late.sql", problem: "expected version 2: migrations are numbered 1, 2, 3, … without gaps")) {
            try QSSchema(creationSQL: "", migrations: [QSMigration(version: 1, sql: ""), QSMigration(version: 3, name: "3-late.sql", sql: "")])
        }
    }

    @Test func schemaFilesAreReadFromAFolder() throws {
        let folder = Fixtures.temporaryDatabaseURL().deletingLastPathComponent()
        let migrations = folder.appendingPathComponent("migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        try "CREATE TABLE a (uniqueID INTEGER PRIMARY KEY);".write(to: folder.appendingPathComponent("schema.sql"), atomically: true, encoding: .utf8)
        try "ALTER TABLE a ADD COLUMN b;".write(to: migrations.appendingPathComponent("2-b.sql"), atomically: true, encoding: .utf8)
        try "ALTER TABLE a ADD COLUMN c;".write(to: migrations.appendingPathComponent("1-c.sql"), atomically: true, encoding: .utf8)
        let schema = try QSSchema(creationFile: folder.appendingPathComponent("schema.sql"), migrationsFolder: migrations)
        #expect(schema.migrations.map(\.name) == ["1-c.sql", "2-b.sql"])
        #expect(schema.latestVersion == 2)
    }

    // MARK: Helpers: a store with an empty model, to reach the schema alone.

    private static let emptyModel = QSDataModel(objectTypes: [])

    private func openRaw(_ url: URL, _ schema: QSSchema) async throws {
        let store = try await QSStore.open(at: url, model: Self.emptyModel, schema: schema, types: [])
        try await store.close()
    }

    private func rows(_ url: URL, _ schema: QSSchema, _ sql: String) async throws -> [[SQLValue]] {
        let store = try await QSStore.open(at: url, model: Self.emptyModel, schema: schema, types: [])
        defer { Task { try await store.close() } }
        return try await store.fetchRows(sql)
    }

    private func userVersion(_ url: URL, _ schema: QSSchema) async throws -> Int64 {
        guard case .integer(let version) = try await rows(url, schema, "PRAGMA user_version").first?.first else { return -1 }
        return version
    }
}
