import Foundation
import QSData
import Testing

/// Opening is all or nothing, and every file problem says which file and why.
@MainActor
@Suite struct SchemaLifecycleTests {
    private static let emptyModel = QSDataModel(objectTypes: [])
    private static let creation = "CREATE TABLE things (uniqueID INTEGER PRIMARY KEY);"

    private func open(_ url: URL, _ schema: QSSchema) async throws {
        let store = try await QSStore.open(at: url, model: Self.emptyModel, schema: schema, types: [])
        try await store.close()
    }

    private func sideFiles(of url: URL) -> [String] {
        ["", "-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: url.path + $0) }
    }

    @Test func aDatabaseFromANewerAppIsRefusedUntouched() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let newer = try QSSchema(creationSQL: Self.creation, migrations: [
            QSMigration(version: 1, sql: "ALTER TABLE things ADD COLUMN a;"),
            QSMigration(version: 2, sql: "ALTER TABLE things ADD COLUMN b;"),
            QSMigration(version: 3, sql: "ALTER TABLE things ADD COLUMN c;"),
        ])
        try await open(url, newer)
        let before = try Data(contentsOf: url)

        let older = try QSSchema(creationSQL: Self.creation, migrations: Array(newer.migrations.prefix(1)))
        await #expect(throws: QSDataError.databaseTooNew(path: url.path, databaseVersion: 3, appVersion: 1)) {
            try await open(url, older)
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(sideFiles(of: url) == [""])
        #expect(QSDataError.databaseTooNew(path: "/d.sqlite", databaseVersion: 3, appVersion: 1).description
            == "The database at /d.sqlite has schema version 3, newer than this app's latest, 1: it was written by a newer version of the app (nothing was changed)")
    }

    @Test func aFailedOpenLeavesNoNewFileBehind() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let sql = Fixtures.schemaSQL.replacingOccurrences(of: "archived BOOLEAN NOT NULL DEFAULT 0, ", with: "")
        await #expect(throws: QSDataError.self) {
            _ = try await QSStore.open(at: url, model: Fixtures.model(), schema: QSSchema(creationSQL: sql), types: Fixtures.allTypes)
        }
        #expect(sideFiles(of: url).isEmpty)
    }

    @Test func aFailedOpenChangesNothingInAnExistingFile() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try await open(url, try QSSchema(creationSQL: Self.creation))
        let before = try Data(contentsOf: url)
        // The migration succeeds, but the model then does not fit the migrated schema.
        let migrated = try QSSchema(creationSQL: Self.creation, migrations: [QSMigration(version: 1, sql: "ALTER TABLE things ADD COLUMN a;")])
        let plist = """
            <plist version="1.0"><dict><key>objects</key><dict><key>Thing</key><dict>
            <key>table</key><string>things</string>
            <key>properties</key><dict><key>uniqueID</key><string>int64</string><key>b</key><string>string</string></dict>
            </dict></dict></dict></plist>
            """
        let model = try QSDataModel(propertyList: Data(plist.utf8))
        await #expect(throws: QSDataError.schemaMismatch(["Thing.b: table 'things' has no column 'b'"])) {
            _ = try await QSStore.open(at: url, model: model, schema: migrated, types: [])
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aMissingCreationFileNamesThePathAndTheReason() {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/Schema.sql")
        #expect(throws: QSDataError.unreadableFile(path: url.path, reason: "no such file")) {
            try QSSchema(creationFile: url)
        }
    }

    @Test func aMissingMigrationsFolderNamesThePathAndTheReason() throws {
        let folder = Fixtures.temporaryDatabaseURL().deletingLastPathComponent()
        let creation = folder.appendingPathComponent("Schema.sql")
        try Self.creation.write(to: creation, atomically: true, encoding: .utf8)
        let missing = folder.appendingPathComponent("Migrations")
        #expect(throws: QSDataError.unreadableFile(path: missing.path, reason: "no such folder")) {
            try QSSchema(creationFile: creation, migrationsFolder: missing)
        }
        #expect(throws: QSDataError.unreadableFile(path: creation.path, reason: "it is a file, not a folder")) {
            try QSSchema(creationFile: creation, migrationsFolder: creation)
        }
        #expect(throws: QSDataError.unreadableFile(path: folder.path, reason: "it is a folder, not a file")) {
            try QSSchema(creationFile: folder)
        }
    }

    @Test func aCreationFileThatIsNotTextSaysSo() throws {
        let url = Fixtures.temporaryDatabaseURL().deletingLastPathComponent().appendingPathComponent("Schema.sql")
        try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: url)
        #expect(throws: QSDataError.unreadableFile(path: url.path, reason: "the file is not UTF-8 text")) {
            try QSSchema(creationFile: url)
        }
    }

    @Test func aMissingModelFileNamesThePathAndTheReason() {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/Notes.plist")
        #expect(throws: QSDataError.unreadableFile(path: url.path, reason: "no such file")) {
            try QSDataModel(contentsOf: url)
        }
    }

    @Test func twoMigrationsWithOneNumberAreReported() {
        #expect(throws: QSDataError.invalidMigration(file: "1-again.sql", problem: "another migration also has version 1")) {
            try QSSchema(creationSQL: "", migrations: [QSMigration(version: 1, sql: ""), QSMigration(version: 1, name: "1-again.sql", sql: "")])
        }
    }

    @Test func migrationsAreNumberedOnTopOfTheCreationSQL() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        // The creation SQL is version 0; the first migration makes it 1.
        let schema = try QSSchema(creationSQL: Self.creation, migrations: [QSMigration(version: 1, sql: "ALTER TABLE things ADD COLUMN a;")])
        #expect(schema.latestVersion == 1)
        let store = try await QSStore.open(at: url, model: Self.emptyModel, schema: schema, types: [])
        #expect(try await store.fetchRows("PRAGMA user_version") == [[.integer(1)]])
        try await store.close()
    }

    @Test func anotherAppsDatabaseIsRefusedBeforeAnyMigrationRunsAndLeftAsItWas() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        do {
            let connection = try SQLiteConnection(path: url.path)
            try connection.executeScript("CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO recipes (title) VALUES ('soup');")
        }
        let before = try Data(contentsOf: url)
        let schema = try QSSchema(creationSQL: Self.creation, migrations: [QSMigration(version: 1, sql: "ALTER TABLE things ADD COLUMN a;")])
        await #expect(throws: QSDataError.foreignDatabase(path: url.path)) {
            try await open(url, schema)
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(sideFiles(of: url) == [""])
        #expect(try SQLiteConnection(path: url.path).fetchValue("PRAGMA journal_mode") == .text("delete"))
    }

    @Test func aFileWithTheSchemasTablesAtItsVersionIsMigrated() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        do {
            // Made by hand as the creation SQL would: version 0, the schema's table.
            let connection = try SQLiteConnection(path: url.path)
            try connection.executeScript(Self.creation)
        }
        let schema = try QSSchema(creationSQL: Self.creation, migrations: [QSMigration(version: 1, sql: "ALTER TABLE things ADD COLUMN a;")])
        try await open(url, schema)
        #expect(try SQLiteConnection(path: url.path).tableColumns() == ["things": ["uniqueID", "a"]])
    }
}
