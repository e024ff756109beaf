import Foundation
import QSData
import Testing

@MainActor
@Suite struct BulkOperationTests {
    private func notes(_ count: Int, from first: Int64 = 100_000) -> [Note] {
        let tag = Tag(name: "bulk")
        return (0..<count).map { index in
            Note(uniqueID: first + Int64(index), text: "note \(index)", tags: [tag],
                 attachments: [Attachment(uniqueID: "bulk-\(index)")])
        }
    }

    @Test func deletingTenThousandObjectsWithTwoRelationshipsTakesThreeStatements() async throws {
        let store = try await Fixtures.openStore()
        let all = notes(12_000)
        try store.save(all)
        try await store.flush()

        var deletedIDs: Set<Int64> = []
        let observation = store.observeChanges { deletedIDs.formUnion($0.deletedIDs(of: Note.self)) }
        let doomed = Array(all.prefix(10_000))
        let log = try await store.recordStatements { try store.delete(doomed) }
        #expect(log.count == 3, "\(log)")
        #expect(deletedIDs.count == 10_000)
        #expect(try await store.count(Note.self) == 2_000)
        let lookups = try await store.fetchRows("SELECT count(*) FROM tagsNotesLookup")
        #expect(lookups == [[.integer(2_000)]])
        let attachmentLookups = try await store.fetchRows("SELECT count(*) FROM attachmentsNotesLookup")
        #expect(attachmentLookups == [[.integer(2_000)]])
        #expect(try await store.fetch(Note.self, id: 100_000) == nil)
        observation.cancel()
    }

    @Test func deletingAHundredThousandByIDWorks() async throws {
        let store = try await Fixtures.openStore()
        try store.save(notes(100_000))
        try await store.flush()
        let ids = try await store.fetchIDs(Note.self)
        let log = try await store.recordStatements { try store.delete(Note.self, ids: ids) }
        #expect(log.count == 3)
        #expect(try await store.count(Note.self) == 0)
    }

    @Test func deletingByConditionReturnsTheIDsAndDropsCachedInstances() async throws {
        let store = try await Fixtures.openStore()
        let all = notes(100)
        all[0].archived = true
        all[1].archived = true
        try store.save(all)
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        let log = try await store.recordStatements { try store.delete(Note.self, where: "archived = ?", arguments: [true]) }
        #expect(log.count == 3)
        #expect(change?.deletedIDs(of: Note.self) == [100_000, 100_001])
        #expect(change?.deletedIDs(of: TimelineNote.self) == [100_000, 100_001])
        #expect(try store.cachedObjectCount(of: Note.self) == 98)
        observation.cancel()
    }

    @Test func updatingTenThousandObjectsTakesOneStatementAndPatchesInstances() async throws {
        let store = try await Fixtures.openStore()
        let all = notes(10_000)
        try store.save(all)
        try await store.flush()
        let timeline = try await store.fetchAll(TimelineNote.self)
        #expect(timeline.count == 10_000)

        var changes: [QSChange] = []
        let observation = store.observeChanges { changes.append($0) }
        var patchedAtOnce = false
        let log = try await store.recordStatements {
            try store.update(Note.self, ids: all.map(\.uniqueID), set: ["archived": true])
            // Live instances reflect it before the statement has even run.
            patchedAtOnce = all.allSatisfy(\.archived)
        }
        #expect(patchedAtOnce)
        #expect(log.count == 1, "\(log)")
        #expect(changes.count == 1)
        #expect(changes.first?.updatedIDs(of: Note.self).count == 10_000)
        #expect(changes.first?.updatedIDs(of: TimelineNote.self).count == 10_000)
        let archived = try await store.count(Note.self, where: "archived = 1")
        #expect(archived == 10_000)
        observation.cancel()
    }

    @Test func updatingCachedValuesReplacesThem() async throws {
        let store = try await Fixtures.openStore(attachmentsCached: true)
        try store.save((0..<10).map { Attachment(uniqueID: "v\($0)") })
        try store.update(Attachment.self, ids: ["v1", "v2"], set: ["width": Int64(1)])
        #expect(try await store.fetch(Attachment.self, id: "v1")?.width == 1)
        #expect(try await store.fetch(Attachment.self, id: "v3")?.width == 640)
    }

    @Test func updatingByConditionPatchesLiveInstancesAfterCommit() async throws {
        let store = try await Fixtures.openStore()
        let all = notes(10)
        try store.save(all)
        try store.update(Note.self, where: "uniqueID >= ?", arguments: [100_005], set: ["text": "late"])
        try await store.flush()
        #expect(all.map(\.text).filter { $0 == "late" }.count == 5)
        #expect(all[4].text == "note 4")
    }

    @Test func updatingAnUnknownColumnIsATypedError() async throws {
        let store = try await Fixtures.openStore()
        #expect(throws: QSDataError.unknownColumn(type: "Note", column: "colour")) {
            try store.update(Note.self, ids: [1], set: ["colour": "red"])
        }
        #expect(throws: QSDataError.cannotWrite(type: "Note", column: "archived", expected: "boolean", found: "String")) {
            try store.update(Note.self, ids: [1], set: ["archived": "yes"])
        }
        #expect(QSDataError.cannotWrite(type: "Note", column: "archived", expected: "boolean", found: "String").description
            == "Note: can't write String to column 'archived', which the model declares as boolean")
    }
}

@MainActor
@Suite struct BulkUpdateReportingTests {
    @Test func anUpdateNamingMissingIDsReportsOnlyTheRowsItChanged() async throws {
        let store = try await Fixtures.openStore()
        try store.save((0..<3).map { Note(uniqueID: Int64(90_000 + $0), text: "n") })
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        let log = try await store.recordStatements {
            try store.update(Note.self, ids: [90_000, 90_002, 99_999], set: ["text": "x"])
        }
        #expect(log.count == 2, "\(log)")  // the UPDATE, then the SELECT that tells which existed
        #expect(change?.updatedIDs(of: Note.self) == [90_000, 90_002])
        observation.cancel()
    }

    @Test func aDeleteNamingMissingOrRepeatedIDsReportsOnlyTheRowsItDeleted() async throws {
        let store = try await Fixtures.openStore()
        let tag = Tag(name: "kept")
        try store.save((0..<3).map { Note(uniqueID: Int64(91_000 + $0), text: "n", tags: [tag]) })
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        let log = try await store.recordStatements {
            try store.delete(Note.self, ids: [91_000, 99_999, 91_002, 91_000])
        }
        // One DELETE for the notes, returning what it deleted; one per lookup table (tags, attachments).
        #expect(log.count == 3, "\(log)")
        #expect(change?.deletedIDs(of: Note.self).sorted() == [91_000, 91_002])
        #expect(try await store.fetchIDs(Note.self) == [91_001])
        #expect(try await store.fetchRows("SELECT noteID FROM tagsNotesLookup") == [[.integer(91_001)]])
        observation.cancel()
    }
}
