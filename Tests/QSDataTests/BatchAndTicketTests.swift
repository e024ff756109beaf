import Foundation
import QSData
import Testing

@MainActor
@Suite struct BatchAndTicketTests {
    @Test func writesOfSeveralTypesCommitTogether() async throws {
        let store = try await Fixtures.openStore()
        var changes: [QSChange] = []
        let observation = store.observeChanges { changes.append($0) }
        let write = try store.performBatch {
            try store.save(Tag(name: "Batch"))
            try store.save(Attachment(uniqueID: "batch-a"))
            try store.write { db in try db.execute("INSERT INTO deletedNotes (uniqueID) VALUES (1)") }
        }
        let log = try await store.recordStatements { try await write.committed() }
        #expect(log.all.filter { $0.hasPrefix("BEGIN") }.count <= 1)
        #expect(try await store.count(Tag.self) == 1)
        #expect(try await store.count(Attachment.self) == 1)
        try await store.flush()
        #expect(changes.map { $0.typeNames } == [["Tag"], ["Attachment"]])
        observation.cancel()
    }

    @Test func aFailureAnywhereInTheBatchRollsBackAllOfIt() async throws {
        let store = try await Fixtures.openStore()
        try store.save(Tag(name: "Taken"))
        try await store.flush()
        let impostor = Tag(name: "Other")
        impostor.name = "Taken"  // tags.name is UNIQUE
        let write = try store.performBatch {
            try store.save(Note(uniqueID: 80_000, text: "would be lost"))
            try store.save(impostor)
        }
        let error = await #expect(throws: QSWriteError.self) { try await write.committed() }
        #expect(error?.operation.hasPrefix("batch of 2 writes") == true)
        #expect(try await store.count(Note.self) == 0)
        // Awaited through the ticket, so flush does not report it a second time.
        try await store.flush()
    }

    @Test func aThrowingBatchBodyWritesNothing() async throws {
        let store = try await Fixtures.openStore()
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try store.performBatch {
                try store.save(Note(uniqueID: 80_001, text: "never written"))
                throw Abandon()
            }
        }
        try store.save(Note(uniqueID: 80_002, text: "written"))  // not part of a batch any more
        #expect(try await store.fetchIDs(Note.self) == [80_002])
    }

    @Test func aTicketTellsWhenOneWriteCommitted() async throws {
        let store = try await Fixtures.openStore()
        let write = try store.save(Note(uniqueID: 80_003, text: "ticket"))
        #expect(write.operation == "save 1 Note")
        try await write.committed()
        try await write.committed()  // again, after it finished
        let failed = try store.write { db in try db.execute("INSERT INTO nowhere VALUES (1)") }
        await #expect(throws: QSWriteError.self) { try await failed.committed() }
        try await store.flush()
    }

    @Test func aCachedObjectIsFoundWithoutWaiting() async throws {
        let store = try await Fixtures.openStore()
        let tag = Tag(name: "Instant")
        try store.save(tag)
        #expect(try store.cachedObject(of: Tag.self, id: "instant") === tag)
        #expect(try store.cachedObject(of: Tag.self, id: "missing") == nil)
    }
}

@MainActor
@Suite struct NestedBatchTests {
    @Test func aNestedBatchJoinsTheOuterOneAndSharesItsTicket() async throws {
        let store = try await Fixtures.openStore()
        var inner: QSWrite?
        let outer = try store.performBatch {
            try store.save(Tag(name: "Outer"))
            inner = try store.performBatch { try store.save(Tag(name: "Inner")) }
        }
        #expect(inner === outer)
        try await outer.committed()
        #expect(try await store.count(Tag.self) == 2)
    }
}

@MainActor
@Suite struct ImmutableTypeTests {
    @Test func savingAStoredImmutableObjectWritesNothing() async throws {
        let store = try await Fixtures.openStore()  // Attachment is immutable in the fixture model
        try store.save(Attachment(uniqueID: "fixed", width: 1))
        try await store.flush()
        let log = try await store.recordStatements { try store.save(Attachment(uniqueID: "fixed", width: 2)) }
        #expect(log.count == 1, "\(log)")
        #expect(log.statements.first?.hasPrefix("INSERT INTO \"attachments\"") == true)
        #expect(try await store.fetch(Attachment.self, id: "fixed")?.width == 1)
    }
}

@MainActor
@Suite struct WriteChangesTests {
    @Test func aCommittedWriteTellsWhatItChanged() async throws {
        let store = try await Fixtures.openStore()
        // The queue is held until the update has been looked at: it can't have committed yet.
        let release = DispatchSemaphore(value: 0)
        try store.write("hold the queue") { _ in _ = release.wait(timeout: .now() + 30) }
        try store.save((0..<10).map { Note(uniqueID: Int64(95_000 + $0), text: "n", archived: $0 < 4) })
        let update = try store.update(Note.self, where: "archived = ?", arguments: [true], set: ["text": "old"])
        #expect(update.changes.isEmpty)  // not committed yet
        release.signal()
        try await update.committed()
        #expect(update.changes.count == 1)
        #expect(update.changes.first?.updatedIDs(of: Note.self) == [95_000, 95_001, 95_002, 95_003])

        let batch = try store.performBatch {
            try store.delete(Note.self, ids: [95_004])
            try store.save(Tag(name: "Counted"))
        }
        try await batch.committed()
        #expect(batch.changes.map(\.typeNames) == [["Note", "TimelineNote"], ["Tag"]])

        let failed = try store.write { db in try db.execute("INSERT INTO nowhere VALUES (1)") }
        await #expect(throws: QSWriteError.self) { try await failed.committed() }
        #expect(failed.changes.isEmpty)
    }
}
