import Dispatch
import Foundation
import QSData
import Testing

/// A batch's writes run on the database queue while its body is still making them, in one
/// transaction that commits when the body returns and rolls back when it throws, or when one of
/// its writes fails, whichever of its writes had run by then.
@MainActor
@Suite struct BatchWritesWhileBodyRunsTests {
    struct Stop: Error {}

    private static func isTransactionControl(_ statement: String) -> Bool {
        statement.hasPrefix("BEGIN") || statement == "COMMIT" || statement == "ROLLBACK"
    }

    /// Inside a batch's body: saves notes `firstID…firstID+49`, then a raw-SQL write that
    /// signals when the queue runs it. Returns whether the queue ran the signalling write before
    /// the body went on, waiting 20 s at most.
    private func saveNotesUntilTheQueueHasRunThem(_ store: QSStore, from firstID: Int64) throws -> Bool {
        let ran = DispatchSemaphore(value: 0)
        for id in firstID ..< firstID + 50 { try store.save(Note(uniqueID: id, text: "note \(id)")) }
        try store.write("signal that the queue got here") { _ in ran.signal() }
        return ran.wait(timeout: .now() + 20) == .success
    }

    @Test func theQueueRunsABatchsWritesWhileTheBodyRunsAndCommitsThemWhenItReturns() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await Fixtures.openStore(url: url)
        let other = try SQLiteConnection(path: url.path)
        var ranBeforeTheBodyReturned = false
        var seenByAnotherConnectionMeanwhile: SQLValue?
        let write = try store.performBatch {
            ranBeforeTheBodyReturned = try saveNotesUntilTheQueueHasRunThem(store, from: 1)
            seenByAnotherConnectionMeanwhile = try other.fetchValue("SELECT count(*) FROM notes")
        }
        try await write.committed()
        #expect(ranBeforeTheBodyReturned)
        #expect(seenByAnotherConnectionMeanwhile == .integer(0), "the batch's transaction had not committed")
        #expect(try await store.count(Note.self) == 50)
        #expect(try other.fetchValue("SELECT count(*) FROM notes") == .integer(50))
        #expect(write.changes.count == 51, "one change per write of the batch")
    }

    @Test func aBodyThatThrowsAfterItsWritesRanLeavesNothingAndPutsTheInstancesBack() async throws {
        let store = try await Fixtures.openStore()
        let kept = Note(uniqueID: 1, text: "before")
        try await store.save(kept).committed()
        var updated: Set<Int64> = []
        let observation = store.observeChanges { updated.formUnion($0.updatedIDs(of: Note.self)) }
        var ranBeforeTheBodyThrew = false
        #expect(throws: Stop.self) {
            try store.performBatch {
                kept.text = "edited in the batch"
                try store.save(kept)
                ranBeforeTheBodyThrew = try saveNotesUntilTheQueueHasRunThem(store, from: 100)
                throw Stop()
            }
        }
        #expect(ranBeforeTheBodyThrew)
        try await store.flush()
        #expect(try await store.fetchIDs(Note.self) == [1])
        #expect(kept.text == "before")
        #expect(updated.contains(1), "observers hear the instance put back as updated")
        observation.cancel()
        try await store.save(Note(uniqueID: 2, text: "after")).committed()
        #expect(try await store.fetchIDs(Note.self) == [1, 2])
    }

    @Test func aBackgroundBodyThatThrowsAfterItsWritesRanLeavesNothingAndReadsGoOn() async throws {
        let store = try await Fixtures.openStore()
        var ranBeforeTheBodyThrew = false
        #expect(throws: Stop.self) {
            try store.performInBackground {
                ranBeforeTheBodyThrew = try saveNotesUntilTheQueueHasRunThem(store, from: 1)
                throw Stop()
            }
        }
        #expect(ranBeforeTheBodyThrew)
        try await store.flush()
        #expect(try await store.count(Note.self) == 0)
        try await store.performInBackground { try store.save(Note(uniqueID: 7, text: "next")) }.committed()
        #expect(try await store.fetchIDs(Note.self) == [7])
    }

    @Test func everyWriteAfterOneThatFailedOnTheQueueHearsTheFailure() async throws {
        let store = try await Fixtures.openStore()
        let failed = DispatchSemaphore(value: 0)
        var later: [QSWrite] = []
        var failedBeforeTheBodyWentOn = false
        let write = try store.performBatch {
            try store.save(Note(uniqueID: 1, text: "first"))
            try store.write("fail") { _ in
                failed.signal()
                throw Stop()
            }
            failedBeforeTheBodyWentOn = failed.wait(timeout: .now() + 20) == .success
            for id: Int64 in 2 ... 4 { later.append(try store.save(Note(uniqueID: id, text: "after the failure"))) }
        }
        #expect(failedBeforeTheBodyWentOn)
        let error = await #expect(throws: QSWriteError.self) { try await write.committed() }
        #expect(error?.operation.hasPrefix("batch of 5 writes") == true)
        for ticket in later {
            await #expect(throws: QSWriteError.self) { try await ticket.committed() }
            #expect(ticket.changes.isEmpty)
        }
        #expect(try await store.count(Note.self) == 0)
    }

    @Test func aStructPatchedThenSavedInOneBatchIsHandedOutAsSaved() async throws {
        let store = try await Fixtures.openStore(attachmentsCached: true)
        try await store.save(Attachment(uniqueID: "a", width: 100)).committed()
        try await store.performBatch {
            try store.update(Attachment.self, ids: ["a"], set: ["width": 200])
            try store.save(Attachment(uniqueID: "a", width: 300))
        }.committed()
        #expect(try await store.fetch(Attachment.self, id: "a")?.width == 300)
        #expect(try await store.fetch(Attachment.self, where: "uniqueID = 'a'").map(\.width) == [300])
        #expect(try await store.fetch(Attachment.self, where: "1").map(\.width) == [300])
    }

    @Test func aBatchThatMakesNoWriteBeginsNoTransaction() async throws {
        let store = try await Fixtures.openStore()
        let log = try await store.recordStatements {
            try await store.performBatch {}.committed()
            try await store.performInBackground {}.committed()
        }
        #expect(log.all.filter(Self.isTransactionControl) == [], "no BEGIN, no COMMIT")
        try await store.save(Note(uniqueID: 1, text: "after")).committed()
        #expect(try await store.fetchIDs(Note.self) == [1])
    }

    @Test func aBodyThatThrowsBeforeItsFirstWriteBeginsNoTransaction() async throws {
        let store = try await Fixtures.openStore()
        let log = try await store.recordStatements {
            #expect(throws: Stop.self) { try store.performBatch { throw Stop() } }
            #expect(throws: Stop.self) { try store.performInBackground { throw Stop() } }
            try await store.flush()
        }
        #expect(log.all.filter(Self.isTransactionControl) == [], "no BEGIN, no ROLLBACK")
        try await store.performInBackground { try store.save(Note(uniqueID: 2, text: "after")) }.committed()
        #expect(try await store.fetchIDs(Note.self) == [2])
    }

    /// The queue may or may not have taken the save when the body throws right after it: either
    /// way nothing is written and the instance shows its row again.
    @Test func aBodyThatThrowsRightAfterSavingLeavesNothingAndPutsTheInstanceBack() async throws {
        let store = try await Fixtures.openStore()
        let kept = Note(uniqueID: 1, text: "before")
        try await store.save(kept).committed()
        var saved: QSWrite?
        #expect(throws: Stop.self) {
            try store.performBatch {
                kept.text = "edited in the batch"
                saved = try store.save(kept)
                try store.save(Note(uniqueID: 2, text: "new in the batch"))
                throw Stop()
            }
        }
        try await store.flush()
        #expect(kept.text == "before")
        #expect(try await store.fetchIDs(Note.self) == [1])
        #expect(try await store.fetch(Note.self, where: "uniqueID = 1").map(\.text) == ["before"])
        let ticket = try #require(saved)
        await #expect(throws: QSWriteError.self) { try await ticket.committed() }
        try await store.save(Note(uniqueID: 3, text: "after")).committed()
        #expect(try await store.fetchIDs(Note.self) == [1, 3])
    }
}
