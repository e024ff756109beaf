import CommandLineTool
import ExampleTestSupport
import Foundation
import QSData
import Testing
import VesperServerCommand

@testable import VesperServerKit

/// `vesper-server` refuses a SQLite file it did not make before changing anything in it, its
/// journal mode included, and says what the file is not.
@Suite struct ForeignDatabaseTests {
    static let foreignScripts = [
        // Another app's tables.
        "CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO recipes (title) VALUES ('soup');",
        // A table with one of the server's names, but not its columns, and no version.
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine');",
        // The server's version number on someone else's tables.
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); PRAGMA user_version = 2;",
    ]

    @Test(arguments: foreignScripts) func aForeignSQLiteFileIsRefusedUntouched(script: String) async throws {
        let folder = try TestFolder(prefix: "vesper-server-foreign")
        let path = folder.appending("other.sqlite").path
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.executeScript(script)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let run = await VesperServerCommand.runCapturing(
            ["--database", path, "--attachments", folder.appending("attachments").path, "--port", "0"])
        #expect(run.exitCode == 1)
        #expect(run.errorOutput == "vesper-server: \(path) is not a vesper-server database (it was left as it was)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let connection = try SQLiteConnection(path: path)
        #expect(try connection.fetchValue("PRAGMA journal_mode") == .text("delete"))
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() async throws {
        let folder = try TestFolder(prefix: "vesper-server-foreign")
        let file = try folder.file("notes.txt", Data(String(repeating: "plain text, not a database\n", count: 200).utf8))
        let before = try Data(contentsOf: file)
        #expect(throws: StorageError.notAServerDatabase(path: file.path)) {
            _ = try VesperSyncServer(
                configuration: VesperServerConfiguration(
                    database: .sqlite(path: file.path), attachmentsPath: folder.appending("attachments").path),
                logger: .init(label: "test"))
        }
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func theServersOwnFileOpensAgainAndAnEmptyFileIsNew() async throws {
        let folder = try TestFolder(prefix: "vesper-server-foreign")
        let path = folder.appending("db.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let configuration = VesperServerConfiguration(
            database: .sqlite(path: path), attachmentsPath: folder.appending("attachments").path)
        _ = try VesperSyncServer(configuration: configuration, logger: .init(label: "test"))
        _ = try VesperSyncServer(configuration: configuration, logger: .init(label: "test"))
        let connection = try SQLiteConnection(path: path)
        #expect(try connection.fetchValue("PRAGMA user_version") == .integer(SQLiteSchema.latestVersion))
    }
}
