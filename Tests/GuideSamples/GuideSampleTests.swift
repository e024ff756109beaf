import Foundation
import QSData
import Testing
import TestSupport

@Suite struct GuideSampleTests {
    @MainActor
    @Test func theGuideSamplesRun() async throws {
        let folder = TestRunFolder.newFolder("qsdata-samples")
        let store = try await Guide().openStore(at: folder.appendingPathComponent("notes.sqlite"))
        try await store.execute("INSERT INTO notes (uniqueID, text) VALUES (7, 'about swift')")
        let note = try #require(try await store.fetch(Note.self, id: 7))
        try await Guide.use(store, note: note, ids: [7])
        #expect(try await store.fetchAll(Note.self).isEmpty)
        try await store.close()
    }

    @MainActor
    @Test func aCachedFolderKeepsItsNotesIDsUntilTheyAreFetched() async throws {
        let folder = TestRunFolder.newFolder("qsdata-samples")
        let url = folder.appendingPathComponent("notes.sqlite")
        let writer = try await Guide().openStore(at: url)
        let work = Folder(uniqueID: "work", name: "Work")
        try writer.save(work)
        let filing = try await writer.recordStatements {
            try Folders().file(Note(uniqueID: 2, text: "agenda"), in: work, store: writer)
            try Folders().file(Note(uniqueID: 1, text: "minutes"), in: work, store: writer)
            try await writer.flush()
        }
        #expect(filing.count == 4, "\(filing)")
        try await writer.close()

        let store = try await Guide().openStore(at: url)
        let cached = try #require(try await store.fetch(Folder.self, id: "work"))
        #expect(!cached.notes.isLoaded)
        #expect(cached.notes.ids == [2, 1])
        var notes: [Note] = []
        let fetch = try await store.recordStatements { notes = try await Folders().open(cached, in: store) }
        // The notes, and their eager tags' lookup rows (the tags themselves are cached).
        #expect(fetch.count == 2, "\(fetch)")
        #expect(notes.map(\.text) == ["agenda", "minutes"])
        #expect(notes.map(\.pinned) == [false, false])
        try await store.close()
    }

    @MainActor
    @Test func theTypedQueriesFindUpdateAndWatchTheNotesTheGuideSays() async throws {
        let folder = TestRunFolder.newFolder("qsdata-samples")
        let store = try await Guide().openStore(at: folder.appendingPathComponent("notes.sqlite"))
        try store.save([
            Note(uniqueID: 1, text: "swift tips"),
            Note(uniqueID: 2, archivedDate: Date(timeIntervalSince1970: 0), pinned: true, text: "old swift notes"),
            Note(uniqueID: 3, text: "groceries"),
        ])
        let (recent, inbox) = try await TypedQueries.use(store)
        try await inbox.waitUntilCurrent()
        #expect(recent.map(\.uniqueID) == [1])
        #expect(try await store.fetchAll(Note.self, orderBy: [Note.columns.uniqueID.ascending]).map(\.pinned) == [true, false, false])
        #expect(inbox.objects.map(\.uniqueID) == [1, 3])
        try await store.close()
    }
}
