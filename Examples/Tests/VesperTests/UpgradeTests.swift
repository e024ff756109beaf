import ExampleTestSupport
import Foundation
import QSData
import Testing
import VesperCore

/// A database written by an earlier version of the app opens in this one and loses nothing.
@MainActor
@Suite struct UpgradeTests {
    /// Before notes could be searched the database had the schema SQL alone (schema version 1,
    /// `user_version` 0). Opening it runs the search migration, which indexes the notes it holds.
    @Test func aDatabaseFromBeforeSearchGainsTheIndexAndFindsItsNotes() async throws {
        let folder = try TestFolder(prefix: "vesper-upgrade")
        let database = folder.appending("notes.sqlite")
        try writeDatabaseFromBeforeSearch(at: database)

        let data = try await VSDataController.open(at: database)
        let results = try await data.search("oat")
        #expect(results.map(\.note.uniqueID) == [7])
        #expect(try await data.store.fetchRows("PRAGMA user_version") == [[.integer(1)]])
        try await data.close()
    }

    private func writeDatabaseFromBeforeSearch(at url: URL) throws {
        let connection = try SQLiteConnection(path: url.path)
        try connection.executeScript(String(contentsOf: VesperResources.schemaURL, encoding: .utf8))
        try connection.execute(
            "INSERT INTO notes (uniqueID, text, creationDate, sortDate) VALUES (7, 'Buy oat milk', 0, 0), (8, 'Call home', 0, 0)")
    }
}
