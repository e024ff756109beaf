import ExampleTestSupport
import Foundation
import QSData
import Testing

@testable import VesperServerKit

@Suite("SQLite storage")
struct StorageTests {
    /// A storage in a new folder; keep the folder while the storage is in use.
    static func makeStorage() throws -> (SQLiteVesperStorage, String, TestFolder) {
        let folder = try TestEnvironment.makeFolder()
        let path = folder.appending("s.sqlite").path
        let cipher = TextCipher(keys: [0: ServerKeys(secret: "x").defaultTextKey], currentKeyID: 0)
        return (try SQLiteVesperStorage(path: path, cipher: cipher), path, folder)
    }

    @Test func notesAreInsertedAndReturned() async throws {
        let (storage, path, folder) = try Self.makeStorage()
        defer { withExtendedLifetime(folder) {} }
        let note = SyncNote(noteID: 1234, text: "hello", creationDate: 1, sortDate: 2, textModificationDate: 3)
        let result = try await storage.syncNotes([note], since: nil, overlap: 600_000, userID: 1)
        #expect(result.items == [note])
        #expect(try DatabaseInspector(path: path).rows("SELECT noteID, userID FROM notes") == [[1234, 1]])
    }
}

@Suite("QSData behaviour the server relies on")
struct QSDataAssumptionTests {
    /// `SQLiteConnection.fetchValue` currently answers `.null` rather than nil when there is no
    /// row (its ternary's `nil` becomes `SQLValue.null`, which is nil-literal-expressible), so the
    /// server tests whether a row exists with `fetchRows`.
    @Test func rowExistenceIsTestedWithFetchRows() throws {
        let connection = try QSData.SQLiteConnection(path: ":memory:")
        #expect(try connection.fetchRows("SELECT 1 WHERE 0").isEmpty)
        #expect(try connection.fetchRows("SELECT 1").count == 1)
    }
}
