import Foundation
import QSData
import Testing

/// Each failure is reported once, where the app can hear it, and closing is all or nothing.
@MainActor
@Suite struct ErrorReportingTests {
    /// Setting a NOT NULL column to nil is refused twice over: the held instance can't take
    /// it, and the database would not either. The call throws; nothing else reports it again.
    @Test func aBulkUpdateRefusedByAnInstanceAndTheDatabaseIsReportedOnce() async throws {
        let store = try await Fixtures.openStore()
        let note = Note(uniqueID: 33_000, text: "kept")
        try store.save(note)
        try await store.flush()

        var reported: [QSWriteError] = []
        let observation = store.observeWriteErrors { reported.append($0) }
        #expect(throws: QSDataError.unexpectedNull(type: "Note", column: "text")) {
            try store.update(Note.self, ids: [33_000], set: ["text": String?.none])
        }
        try await store.flush()  // not reported a second time
        #expect(reported.isEmpty)
        #expect(note.text == "kept")
        #expect(try await store.fetchRows("SELECT text FROM notes WHERE uniqueID = 33000") == [[.text("kept")]])
        observation.cancel()
    }

    /// Two saves that break a UNIQUE constraint, not awaited, then close: close reports the
    /// failure and still closes everything.
    @Test func closeAfterFailedWritesReportsThemAndStillCloses() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await Fixtures.openStore(url: url)
        try store.save(Tag(name: "Unique"))
        try await store.flush()
        for name in ["First", "Second"] {
            let clash = Tag(name: name)
            clash.name = "Unique"
            try store.save(clash)
        }
        let changes = store.changes

        let error = await #expect(throws: QSWriteError.self) { try await store.close() }
        #expect((error?.underlying as? SQLiteError)?.code == 19)  // SQLITE_CONSTRAINT
        #expect(store.isClosed)
        #expect(throws: QSDataError.storeClosed) { try store.save(Tag(name: "late")) }
        // The stream was finished: reading it to its end returns (bounded, in case it doesn't).
        let reading = Task {
            for await _ in changes {}
            return !Task.isCancelled
        }
        let bound = Task {
            try await Task.sleep(for: .seconds(30))
            reading.cancel()
        }
        #expect(await reading.value, "the change stream ended when the store closed")
        bound.cancel()
        try await store.close()  // a second close does nothing

        let reopened = try await Fixtures.openStore(url: url)
        #expect(try await reopened.count(Tag.self) == 1)
        try await reopened.close()
    }

    /// A fetch whose own row can't be read, after it made the instances of its children: the
    /// queue lets go of them as well, so the next fetch hands them to the main actor, which then
    /// holds every instance of the type cached for good that it was given.
    @Test func aFetchThatFailsAfterMakingItsChildrenLeavesThemToTheNextFetch() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let first = try await SelfRelatedFixtures.openStore(url: url)
        try first.save(Folder(uniqueID: 1, name: "top", subfolders: [Folder(uniqueID: 2, name: "inner")]))
        try await first.close()
        try SQLiteConnection(path: url.path).execute("UPDATE folders SET name = x'00' WHERE uniqueID = 1")

        let store = try await SelfRelatedFixtures.openStore(url: url)
        await #expect(throws: QSDataError.valueConversion(type: "Folder", column: "name", expected: "String", found: "a blob of 1 bytes")) {
            _ = try await store.fetch(Folder.self, id: 1)
        }
        #expect(try store.cachedObjectCount(of: Folder.self) == 0)
        let inner = try await store.fetch(Folder.self, id: 2)
        #expect(inner == Folder(uniqueID: 2, name: "inner"))
        #expect(try store.cachedObject(of: Folder.self, id: 2) == inner)
        try await store.close()
    }
}
