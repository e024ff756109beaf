import ExampleTestSupport
import Foundation
import Testing
import QSData
import VesperCore

/// The notes database file: private to its owner from the moment it is made.
@Suite struct DatabaseFileTests {
    @Test func aNewNotesDatabaseAndItsLogFilesAreReadableByTheOwnerOnly() async throws {
        let folder = try TestFolder()
        let added = await folder.vesper("add", "a private note")
        #expect(added.exitCode == 0)
        let mode = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.databaseURL.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        // While open, SQLite makes the write-ahead log beside it with the same mode.
        let vesper = try await VSDataController.open(at: folder.databaseURL)
        let wal = folder.databaseURL.path + "-wal"
        if FileManager.default.fileExists(atPath: wal) {
            #expect(try FileManager.default.attributesOfItem(atPath: wal)[.posixPermissions] as? Int == 0o600)
        }
        try await vesper.close()
    }

    @Test func anExistingDatabaseKeepsTheModeItsOwnerGaveIt() async throws {
        let folder = try TestFolder()
        #expect(await folder.vesper("add", "a note").exitCode == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: folder.databaseURL.path)
        #expect(await folder.vesper("list").exitCode == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: folder.databaseURL.path)[.posixPermissions] as? Int == 0o640)
    }
}

/// `vesper` leaves a SQLite file that isn't its own as it was, and says what the file is not.
@Suite struct ForeignDatabaseTests {
    static let foreignScripts = [
        "CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO recipes (title) VALUES ('soup');",
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine');",
    ]

    @Test(arguments: foreignScripts) func anotherAppsSQLiteFileIsRefusedUntouched(script: String) async throws {
        let folder = try TestFolder()
        do {
            let connection = try SQLiteConnection(path: folder.databaseURL.path)
            try connection.executeScript(script)
        }
        let before = try Data(contentsOf: folder.databaseURL)
        let result = await folder.vesper("list")
        #expect(result.exitCode == 1)
        #expect(result.errorOutput == "vesper: \(folder.databaseURL.path) is not a Vesper notes database (it was left as it was).\n")
        #expect(try Data(contentsOf: folder.databaseURL) == before)
        #expect(try SQLiteConnection(path: folder.databaseURL.path).fetchValue("PRAGMA journal_mode") == .text("delete"))
    }
}
