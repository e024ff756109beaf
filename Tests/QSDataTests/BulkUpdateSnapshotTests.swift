import Dispatch
import Foundation
import QSData
import Testing

/// A bulk update by IDs keeps the store's record of what each row holds (what a later save
/// compares an instance with) true, whether the database queue runs the update's `UPDATE` while
/// the main actor patches the instances (the usual case) or is still busy with earlier writes
/// that save the same rows.
@MainActor
@Suite struct BulkUpdateSnapshotTests {
    enum QueueState: String, CaseIterable, CustomTestStringConvertible {
        /// The queue has begun the update's transaction before the instances are all patched:
        /// the first instance patched waits until another connection sees the store writing.
        case runsTheUpdateWhileInstancesArePatched
        /// Writes enqueued earlier hold the queue until the update call has returned; one of
        /// them saves the same notes, recording what their rows hold before the update.
        case isBusyUntilTheCallReturns

        var testDescription: String { rawValue }
    }

    @Test(arguments: QueueState.allCases)
    func aBulkUpdateLeavesTheStoreKnowingWhatTheRowsHold(queue: QueueState) async throws {
        let (store, url, notes) = try await openStore(notes: 300)
        let marked = Array(notes.prefix(100))
        try archive(marked, in: store, at: url, queue: queue)
        try await store.flush()
        #expect(marked.allSatisfy { $0.archived })
        #expect(try await store.count(PatchableNote.self, where: "archived = 1") == 100)
        if queue == .isBusyUntilTheCallReturns {
            #expect(try await store.count(PatchableNote.self, where: "text LIKE '%, edited'") == 100)
        }

        // Saved as they are, they write nothing: the rows, changed in place, are read once in one
        // statement, which finds nothing to write, and are known again after it.
        let unchanged = try await store.recordStatements {
            try store.save(marked)
            try await store.flush()
        }
        #expect(unchanged.count == 1 && unchanged.statements.allSatisfy { $0.hasPrefix("SELECT") }, "\(unchanged)")
        let again = try await store.recordStatements {
            try store.save(marked)
            try await store.flush()
        }
        #expect(again.count == 0, "\(again)")
        // Put back, one is read and written: the store does not still think its row unarchived.
        marked[0].archived = false
        let putBack = try await store.recordStatements {
            try store.save(marked[0])
            try await store.flush()
        }
        #expect(putBack.count == 2 && putBack.statements.last?.hasPrefix("UPDATE") == true, "\(putBack)")
        #expect(try await store.count(PatchableNote.self, where: "archived = 1") == 99)
        try await store.close()
    }

    @Test(arguments: QueueState.allCases)
    func aBulkUpdateThatSQLiteRefusesLeavesNothingPatchedBehind(queue: QueueState) async throws {
        let (store, url, notes) = try await openStore(notes: 50)
        try await store.execute("""
            CREATE TEMP TRIGGER refuseArchiving BEFORE UPDATE OF archived ON notes WHEN NEW.archived = 1
            BEGIN SELECT RAISE(ABORT, 'archiving refused'); END
            """)
        try archive(notes, in: store, at: url, queue: queue)
        let error = await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(error?.wasRolledBack == true)
        #expect((error?.underlying as? SQLiteError)?.message == "archiving refused")
        #expect(notes.allSatisfy { !$0.archived }, "restored to what the database holds")
        try await store.execute("DROP TRIGGER refuseArchiving")

        // Archived now, one is written: the store does not think its row archived already.
        notes[7].archived = true
        try store.save(notes[7])
        try await store.flush()
        let archivedIDs = try await store.fetchIDs(PatchableNote.self, where: "archived = 1")
        #expect(archivedIDs == [7])
        try await store.close()
    }

    @Test(arguments: QueueState.allCases)
    func aRowDeletedByTheAppsSQLIsForgottenAndComesBackWhenItsInstanceIsSaved(queue: QueueState) async throws {
        let (store, url, notes) = try await openStore(notes: 20)
        try await store.execute("DELETE FROM notes WHERE uniqueID = 3")
        #expect(try store.cachedObject(of: PatchableNote.self, id: 3) == nil, "the change log told the store")
        try archive(notes, in: store, at: url, queue: queue)
        try await store.flush()
        // The second way of archiving saves every note first, note 3 included: its row is back
        // then, and archived. The first finds no row 3 to change, and no instance to patch.
        let savedBeforeTheUpdate = queue == .isBusyUntilTheCallReturns
        #expect(notes[3].archived == savedBeforeTheUpdate)

        // Saved again, the instance's row is written as the instance holds it.
        try store.save(notes[3])
        try await store.flush()
        #expect(try await store.count(PatchableNote.self) == 20)
        #expect(try await store.count(PatchableNote.self, where: "archived = 1") == (savedBeforeTheUpdate ? 20 : 19))
        try await store.close()
    }

    // MARK: Helpers

    private func openStore(notes count: Int) async throws -> (QSStore, URL, [PatchableNote]) {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await QSStore.open(
            at: url, model: Fixtures.model(), schema: QSSchema(creationSQL: Fixtures.schemaSQL),
            types: [PatchableNote.self, Tag.self, Attachment.self])
        let notes = (0..<count).map { PatchableNote(uniqueID: Int64($0), text: "note \($0)") }
        try store.save(notes)
        try await store.flush()
        return (store, url, notes)
    }

    /// Archives `notes` with one bulk update, with the queue as `queue` says when the main actor
    /// has patched the instances.
    private func archive(_ notes: [PatchableNote], in store: QSStore, at url: URL, queue: QueueState) throws {
        let ids = notes.map(\.uniqueID)
        switch queue {
        case .runsTheUpdateWhileInstancesArePatched:
            let probe = try WriteLockProbe(path: url.path)
            notes[0].beforeUpdate = { _ in try probe.waitUntilAnotherConnectionWrites() }
            defer { notes[0].beforeUpdate = nil }
            try store.update(PatchableNote.self, ids: ids, set: ["archived": true])
        case .isBusyUntilTheCallReturns:
            let release = DispatchSemaphore(value: 0)
            try store.write("hold the queue") { _ in _ = release.wait(timeout: .now() + 30) }
            defer { release.signal() }
            for note in notes { note.text += ", edited" }
            try store.save(notes)
            try store.update(PatchableNote.self, ids: ids, set: ["archived": true])
        }
    }
}

/// A second connection to a store's file that tells when the store has begun a write
/// transaction: from then on, it can't begin one itself.
private struct WriteLockProbe {
    struct TimedOut: Error {}

    let connection: SQLiteConnection

    init(path: String) throws {
        connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA busy_timeout = 0")
    }

    func waitUntilAnotherConnectionWrites() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            do {
                try connection.execute("BEGIN IMMEDIATE")
                try connection.execute("ROLLBACK")
            } catch let error as SQLiteError where error.code == 5 {  // SQLITE_BUSY
                return
            }
        }
        throw TimedOut()
    }
}
