import Foundation
import QSData
import Testing

/// When a uniqued instance dies, the snapshot of its row stays in the store until the entry is
/// swept or reused, and a fetch of the row keeps it for the new instance while nothing but the
/// store's own writes has changed the file. A row changed behind the store's back (SQL the app
/// runs, inside a store write or not, or another connection) and then fetched again must be
/// saved against what it now holds, never against that older snapshot, or a save would skip what
/// changed.
@MainActor
@Suite struct KeptSnapshotTests {
    private static let noteID: Int64 = 61_000

    /// Saves one note with two tags, lets the instance die, and returns the store.
    private func storeWithADeadNote() async throws -> QSStore {
        let store = try await Fixtures.openStore(tagsCached: false)
        do {
            let note = Note(uniqueID: Self.noteID, text: "first", tags: [Tag(name: "kept one"), Tag(name: "kept two")])
            try store.save(note)
            try await store.flush()
        }
        try #require(try store.cachedObject(of: Note.self, id: Self.noteID) == nil, "the instance should have died")
        return store
    }

    /// Fetches the note changed behind the store's back to `changedText`, sets it back to what the
    /// dead instance's snapshot says, saves it, and expects the database to hold that.
    private func expectTheOldTextIsSavedBack(in store: QSStore, after changedText: String) async throws {
        let note = try #require(try await store.fetch(Note.self, id: Self.noteID))
        #expect(note.text == changedText)
        note.text = "first"  // what the old snapshot says
        try store.save(note)
        try await store.flush()
        let stored = try await store.fetchRows("SELECT text FROM notes WHERE uniqueID = ?", [.integer(Self.noteID)])
        #expect(stored == [[.text("first")]])
    }

    @Test func anUnchangedRowFetchedAgainSavesNothing() async throws {
        let store = try await storeWithADeadNote()
        let note = try #require(try await store.fetch(Note.self, id: Self.noteID))
        #expect(note.text == "first")
        #expect(note.tags.map(\.name) == ["kept one", "kept two"])
        let log = try await store.recordStatements {
            try store.save(note)
            try await store.flush()
        }
        #expect(log.statements.filter { $0.contains("\"notes\"") || $0.contains("Lookup") }.isEmpty, "\(log)")
        try await store.close()
    }

    @Test func aColumnChangedByRawSQLIsSavedBackAfterARefetch() async throws {
        let store = try await storeWithADeadNote()
        try await store.execute("UPDATE notes SET text = 'changed outside' WHERE uniqueID = ?", [.integer(Self.noteID)])

        try await expectTheOldTextIsSavedBack(in: store, after: "changed outside")
        try await store.close()
    }

    @Test func aKeptSnapshotIsWhatTheRowHolds() async throws {
        let store = try await storeWithADeadNote()
        let note = try #require(try await store.fetch(Note.self, id: Self.noteID))
        note.text = "second"
        let log = try await store.recordStatements {
            try store.save(note)
            try await store.flush()
        }
        #expect(log.statements.filter { $0.contains("\"notes\"") || $0.contains("Lookup") }
            == [rowReadSQL("notes", ["uniqueID", "archived", "links", "sortDate", "text"]), "UPDATE \"notes\" SET \"text\" = ? WHERE \"uniqueID\" = ?"], "\(log)")
        try await store.close()
    }

    @Test func aColumnChangedByAnotherConnectionIsSavedBackAfterARefetch() async throws {
        let store = try await storeWithADeadNote()
        do {
            let other = try SQLiteConnection(path: store.url.path)
            try other.execute("UPDATE notes SET text = 'changed elsewhere' WHERE uniqueID = ?", [.integer(Self.noteID)])
        }

        try await expectTheOldTextIsSavedBack(in: store, after: "changed elsewhere")
        try await store.close()
    }

    @Test func aColumnChangedBySQLInsideAStoreWriteIsSavedBackAfterARefetch() async throws {
        let store = try await storeWithADeadNote()
        let id = Self.noteID
        try store.write { connection in
            try connection.execute("UPDATE notes SET text = 'changed in a write' WHERE uniqueID = ?", [.integer(id)])
        }
        try await store.flush()

        try await expectTheOldTextIsSavedBack(in: store, after: "changed in a write")
        try await store.close()
    }

    /// A save writes only what differs from the snapshot, so when the snapshot was out of date
    /// the one it records is too, and must not be kept by a later fetch.
    @Test func aSaveAgainstAnOutdatedSnapshotLeavesItUntrusted() async throws {
        let store = try await Fixtures.openStore(tagsCached: false)
        let id = Self.noteID
        do {
            let note = Note(uniqueID: id, text: "first")
            try store.save(note)
            try await store.flush()
            try await store.execute("UPDATE notes SET archived = 1 WHERE uniqueID = ?", [.integer(id)])
            note.text = "second"  // saved against a snapshot that still says archived = 0
            try store.save(note)
            try await store.flush()
        }
        try #require(try store.cachedObject(of: Note.self, id: id) == nil, "the instance should have died")

        let note = try #require(try await store.fetch(Note.self, id: id))
        #expect(note.archived)
        note.archived = false  // what the outdated snapshot says
        try store.save(note)
        try await store.flush()
        let stored = try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = ?", [.integer(id)])
        #expect(stored == [[.text("second"), .integer(0)]])
        try await store.close()
    }

    @Test func lookupRowsChangedByRawSQLAreSavedBackAfterARefetch() async throws {
        let store = try await storeWithADeadNote()
        try await store.execute("DELETE FROM tagsNotesLookup WHERE noteID = ? AND ix > 0", [.integer(Self.noteID)])

        let note = try #require(try await store.fetch(Note.self, id: Self.noteID))
        #expect(note.tags.map(\.name) == ["kept one"])
        let second = try #require(try await store.fetch(Tag.self, where: "name = ?", arguments: ["kept two"]).first)
        note.tags.append(second)  // back to what the old snapshot says
        try store.save(note)
        try await store.flush()
        let stored = try await store.fetchRows(
            "SELECT tags.name FROM tagsNotesLookup JOIN tags ON tags.uniqueID = tagID WHERE noteID = ? ORDER BY ix",
            [.integer(Self.noteID)])
        #expect(stored == [[.text("kept one")], [.text("kept two")]])
        try await store.close()
    }
}
