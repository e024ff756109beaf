import Foundation
import QSData
import Testing

/// A cached instance may refuse the values a write patches into it (its `update(from:)` throws).
/// The write then throws before any SQL runs, and every instance patched before the refusal takes
/// back what it held: nothing of the write shows in memory, as nothing of it is written.
@MainActor
struct RefusedPatchTests {
    private func openStore() async throws -> QSStore {
        try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(), schema: QSSchema(creationSQL: Fixtures.schemaSQL),
            types: [PatchableNote.self, TimelineNote.self, Tag.self, Attachment.self])
    }

    /// Two held notes, the second refusing to be archived, saved.
    private func willingAndStubborn(from first: Int64, in store: QSStore) async throws -> (PatchableNote, PatchableNote) {
        let willing = PatchableNote(uniqueID: first, text: "willing")
        let stubborn = PatchableNote(uniqueID: first + 1, text: "stubborn")
        stubborn.refuseArchiving()
        try store.save([willing, stubborn])
        try await store.flush()
        return (willing, stubborn)
    }

    private func archivedCount(_ store: QSStore) async throws -> Int {
        try await store.count(PatchableNote.self, where: "archived = 1")
    }

    @Test func aSaveThatAnInstanceOfAnotherTypeRefusesWritesNothingAndPutsBackThoseItPatched() async throws {
        let store = try await openStore()
        let (willing, stubborn) = try await willingAndStubborn(from: 34_000, in: store)
        var rows = try await store.fetch(TimelineNote.self, where: "uniqueID >= 34000", orderBy: "uniqueID")
        for index in rows.indices { rows[index].archived = true }

        let log = try await store.recordStatements {
            #expect(throws: PatchableNote.RefusesToBeArchived.self) { try store.save(rows) }
            #expect(!willing.archived, "patched before the refusal, and put back at once")
            try await store.flush()
        }
        #expect(log.count == 0, "\(log)")
        #expect(try await archivedCount(store) == 0)
        #expect(!willing.archived)
        #expect(!stubborn.archived)

        // Saved without the stubborn note, the willing one's row and instance are archived.
        try store.save([rows[0]])
        try await store.flush()
        #expect(willing.archived)
        #expect(try await archivedCount(store) == 1)
        try await store.close()
    }

    /// 600 notes from `first`, the willing one first and the stubborn one at `stubbornOffset`, as
    /// archived rows of another type on the same table, to save.
    private func sixHundredArchivedRows(from first: Int64, stubbornOffset: Int64, in store: QSStore) async throws -> (PatchableNote, PatchableNote, [TimelineNote]) {
        let willing = PatchableNote(uniqueID: first, text: "willing")
        let stubborn = PatchableNote(uniqueID: first + stubbornOffset, text: "stubborn")
        stubborn.refuseArchiving()
        let others = (first ..< first + 600).filter { $0 != willing.uniqueID && $0 != stubborn.uniqueID }
        try store.save([willing, stubborn] + others.map { PatchableNote(uniqueID: $0, text: "other") })
        try await store.flush()
        var rows = try await store.fetch(TimelineNote.self, where: "uniqueID >= ?", arguments: [.integer(first)], orderBy: "uniqueID")
        for index in rows.indices { rows[index].archived = true }
        return (willing, stubborn, rows)
    }

    @Test func aLargeSaveRefusedInItsFirstChunkThrowsAndPutsBackThoseItPatched() async throws {
        let store = try await openStore()
        let (willing, stubborn, rows) = try await sixHundredArchivedRows(from: 35_000, stubbornOffset: 1, in: store)

        #expect(throws: PatchableNote.RefusesToBeArchived.self) { try store.save(rows) }
        #expect(!willing.archived)
        try await store.flush()
        #expect(!willing.archived)
        #expect(!stubborn.archived)
        #expect(try await archivedCount(store) == 0)
        try await store.close()
    }

    @Test func aLargeSaveRefusedInALaterChunkRollsBackAndPutsBackEveryInstance() async throws {
        let store = try await openStore()
        let (willing, stubborn, rows) = try await sixHundredArchivedRows(from: 36_000, stubbornOffset: 599, in: store)

        let write = try store.save(rows)  // the first chunk is encoded now; the stubborn note's, later
        let error = await #expect(throws: QSWriteError.self) { try await write.committed() }
        #expect(error?.underlying is PatchableNote.RefusesToBeArchived)
        #expect(error?.wasRolledBack == true)
        try await store.flush()  // reported once, by the write
        #expect(!willing.archived, "restored to what the database holds")
        #expect(!stubborn.archived)
        #expect(try await archivedCount(store) == 0)
        try await store.close()
    }

    @Test func aRefusedBulkUpdateCaughtInABatchKeepsWhatTheBatchSavedBefore() async throws {
        let store = try await openStore()
        let (willing, stubborn) = try await willingAndStubborn(from: 37_000, in: store)

        let batch = try store.performBatch {
            willing.text = "saved in the batch"
            try store.save(willing)
            #expect(throws: PatchableNote.RefusesToBeArchived.self) {
                try store.update(PatchableNote.self, ids: [37_000, 37_001], set: ["archived": true])
            }
        }
        try await batch.committed()
        try await store.flush()
        #expect(willing.text == "saved in the batch")
        #expect(!willing.archived)
        #expect(!stubborn.archived)
        #expect(try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = 37000") == [[.text("saved in the batch"), .integer(0)]])
        try await store.close()
    }

    @Test func aRefusedBulkUpdateCaughtInABatchKeepsWhatAnEarlierUpdateOfTheBatchSet() async throws {
        let store = try await openStore()
        let (willing, stubborn) = try await willingAndStubborn(from: 38_000, in: store)

        let batch = try store.performBatch {
            try store.update(PatchableNote.self, ids: [38_000], set: ["archived": true])
            #expect(throws: PatchableNote.RefusesToBeArchived.self) {
                try store.update(PatchableNote.self, ids: [38_000, 38_001], set: ["archived": true, "text": "refused"])
            }
        }
        try await batch.committed()
        try await store.flush()
        #expect(willing.archived, "as the batch's first update set it")
        #expect(willing.text == "willing")
        #expect(!stubborn.archived)
        #expect(try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = 38000") == [[.text("willing"), .integer(1)]])
        try await store.close()
    }

    // A write an instance refuses leaves nothing noted for the write timings: an earlier write,
    // committing after it, still patches what the refused write would have given its values.

    @Test func aRefusedSaveLeavesAnEarlierUpdatesPatchToReachTheInstancesItPutBack() async throws {
        let store = try await openStore()
        let (willing, stubborn) = try await willingAndStubborn(from: 39_000, in: store)
        var rows = try await store.fetch(TimelineNote.self, where: "uniqueID >= 39000", orderBy: "uniqueID")
        for index in rows.indices { rows[index].archived = true }

        let earlier = try store.update(PatchableNote.self, where: "uniqueID = 39000", set: ["text": "from the update"])
        #expect(throws: PatchableNote.RefusesToBeArchived.self) { try store.save(rows) }
        try await earlier.committed()
        try await store.flush()
        #expect(willing.text == "from the update")
        #expect(!willing.archived)
        #expect(try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = 39000") == [[.text("from the update"), .integer(0)]])
        #expect(!stubborn.archived)
        try await store.close()
    }

    @Test func aRefusedBulkUpdateInABatchLeavesAnEarlierUpdatesPatchToReachTheColumnsItPutBack() async throws {
        let store = try await openStore()
        let (willing, stubborn) = try await willingAndStubborn(from: 40_000, in: store)

        let earlier = try store.update(PatchableNote.self, where: "uniqueID = 40000", set: ["text": "from the update"])
        let batch = try store.performBatch {
            #expect(throws: PatchableNote.RefusesToBeArchived.self) {
                try store.update(PatchableNote.self, ids: [40_000, 40_001], set: ["archived": true, "text": "refused"])
            }
        }
        try await earlier.committed()
        try await batch.committed()
        try await store.flush()
        #expect(willing.text == "from the update")
        #expect(!willing.archived)
        #expect(try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = 40000") == [[.text("from the update"), .integer(0)]])
        #expect(stubborn.text == "stubborn")
        try await store.close()
    }
}
