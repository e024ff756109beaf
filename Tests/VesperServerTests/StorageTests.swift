import Foundation
import Testing

@testable import VesperServerKit

@Suite("SQLite storage")
struct StorageTests {
    static func makeStorage() throws -> (SQLiteVesperStorage, String) {
        let folder = try TestEnvironment.makeFolder()
        let path = folder.appendingPathComponent("s.sqlite").path
        let cipher = TextCipher(keys: [0: ServerKeys(secret: "x").defaultTextKey], currentKeyID: 0)
        return (try SQLiteVesperStorage(path: path, cipher: cipher), path)
    }

    @Test func notesAreInsertedAndReturned() async throws {
        let (storage, path) = try Self.makeStorage()
        let note = SyncNote(noteID: 1234, text: "hello", creationDate: 1, sortDate: 2, textModificationDate: 3)
        let result = try await storage.syncNotes([note], since: nil, overlap: 600_000, userID: 1)
        #expect(result.items == [note])
        #expect(try DatabaseInspector(path: path).rows("SELECT noteID, userID FROM notes") == [[1234, 1]])
    }
}
