import Foundation
import QSData
import Testing

/// An attachment whose encoding fails for one uniqueID, to break a save halfway through.
private struct FragileAttachment: QSDataObject {
    static let modelName = "Attachment"
    let uniqueID: String

    init(uniqueID: String) { self.uniqueID = uniqueID }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        _ = try row["mimeType"] as String
        _ = try row["width"] as Int64
        _ = try row["height"] as Int64
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["mimeType"] = "image/png"
        row["width"] = Int64(1)
        row[uniqueID == "bad" ? "bogus" : "height"] = Int64(1)
    }
}

/// A note whose text may be nil, which the table's NOT NULL rule refuses: SQLite fails the write
/// there, after the main actor has encoded the row.
private final class NoteWithoutText: QSUpdatableObject {
    static let modelName = "Note"
    let uniqueID: Int64
    var text: String?
    var tags: [Tag] = []
    var attachments: [Attachment] = []

    init(uniqueID: Int64, text: String?) {
        self.uniqueID = uniqueID
        self.text = text
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        try update(from: row)
    }

    func update(from row: QSRow) throws {
        text = try row["text"]
        _ = try row["archived"] as Bool
        _ = try row["sortDate"] as Date
        _ = try row["links"] as [String]?
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["text"] = text
        row["archived"] = false
        row["sortDate"] = Fixtures.referenceDate
        row["links"] = nil as [String]?
        row.setRelated("tags", tags)
        row.setRelated("attachments", attachments)
    }
}

@MainActor
@Suite struct LargeSaveTests {
    @Test func aSaveLargerThanOneChunkIsWrittenWholeAndOrderedBeforeLaterFetches() async throws {
        let store = try await Fixtures.openStore()
        let tag = Tag(name: "everywhere")
        let notes = (0..<9_999).map { Note(uniqueID: Int64(60_000 + $0), text: "n\($0)", tags: [tag]) }
        try store.save(notes)
        // Fetched without a flush: the fetch queues behind every chunk of the save.
        #expect(try await store.count(Note.self) == 9_999)
        let lookups = try await store.fetchRows("SELECT count(*), count(DISTINCT tagID) FROM tagsNotesLookup")
        #expect(lookups == [[.integer(9_999), .integer(1)]])
        #expect(try await store.count(Tag.self) == 1)
    }

    @Test func aFailureInALaterChunkRollsBackTheWholeSave() async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL), types: [FragileAttachment.self])
        var attachments = (0..<5_000).map { FragileAttachment(uniqueID: "ok-\($0)") }
        attachments[4_500] = FragileAttachment(uniqueID: "bad")
        try store.save(attachments)  // the bad one is past the first chunk: reported later
        let error = await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(error?.underlying as? QSDataError == .unknownColumn(type: "Attachment", column: "bogus"))
        #expect(try await store.count(FragileAttachment.self) == 0)
    }

    @Test func laterWorkHandedOverWhileALargeSaveIsEncodedRunsAfterItInOrder() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await Fixtures.openStore(url: url)
        let notes = (0..<2_600).map { Note(uniqueID: Int64($0), text: "n\($0)") }
        try store.save(notes)
        // Later work, handed over while the chunks after the first are still to be encoded: the
        // save's write is on the queue already, waiting for them.
        notes[0].text = "edited after the large save"
        try store.save(notes[0])
        let counted = Task { try await store.count(Note.self, where: "text = 'edited after the large save'") }
        #expect(try await counted.value == 1)
        #expect(try await store.count(Note.self) == 2_600)
        try await store.close()
    }

    @Test func aWriteThatFailsWhileLaterChunksAreEncodedStopsTheEncodingAndRollsBackWhole() async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL), types: [NoteWithoutText.self, Tag.self, Attachment.self])
        // The second chunk's note 700 has no text: the write fails there while the main actor
        // still has chunks to encode.
        let notes = (0..<5_000).map { NoteWithoutText(uniqueID: Int64($0), text: $0 == 700 ? nil : "n\($0)") }
        try store.save(notes)
        let error = await #expect(throws: QSWriteError.self) { try await store.flush() }
        let message = error.map { String(describing: $0.underlying) } ?? ""
        #expect(message.contains("NOT NULL"))
        #expect(try await store.count(NoteWithoutText.self) == 0)
        // Every chunk's instances went back to what the database holds: none of them.
        #expect(try store.cachedObjectCount(of: NoteWithoutText.self) == 0)
        notes[700].text = "n700"
        try store.save(notes)
        try await store.flush()
        #expect(try await store.count(NoteWithoutText.self) == 5_000)
        try await store.close()
    }

    @Test func anUpdateAfterALargeSaveInOneBatchReachesEveryChunkEvenWhenAnotherWriteCameBetween() async throws {
        let store = try await Fixtures.openStore()
        let notes = (0..<1_200).map { Note(uniqueID: Int64($0), text: "saved") }
        try store.performBatch {
            try store.save(notes)
            try store.update(Note.self, where: "text = 'saved'", set: ["text": "updated"])
        }
        // Another write takes a stamp before the save's later chunks are encoded: they still
        // belong to the save made before the update, which patches them once committed.
        try store.delete(Tag.self, ids: ["no such tag"])
        try await store.flush()
        #expect(notes.filter { $0.text != "updated" }.count == 0)
        #expect(try await store.count(Note.self, where: "text = 'updated'") == 1_200)
        try await store.close()
    }

    @Test func aWriteAfterALargeSaveComesAfterAllOfItInMemoryToo() async throws {
        let store = try await Fixtures.openStore()
        let notes = (0..<1_200).map { Note(uniqueID: Int64($0), text: "n\($0)") }
        try store.performBatch {
            try store.save(notes)
            // Note 1,100 is in a chunk that would have been encoded turns later, after this delete.
            try store.delete(Note.self, ids: [1_100])
        }
        try await store.flush()
        #expect(try await store.count(Note.self) == 1_199)
        #expect(try await store.fetch(Note.self, id: 1_100) == nil)
        #expect(try store.cachedObjectCount(of: Note.self) == 1_199)
        try await store.close()
    }

    @Test func aBatchThatThrowsAfterALargeSaveLeavesNoneOfItsInstancesCached() async throws {
        struct Refused: Error {}
        let store = try await Fixtures.openStore()
        let notes = (0..<1_200).map { Note(uniqueID: Int64($0), text: "n\($0)") }
        #expect(throws: Refused.self) {
            try store.performBatch {
                try store.save(notes)
                throw Refused()
            }
        }
        try await store.flush()
        #expect(try await store.count(Note.self) == 0)
        // The chunks after the first, which would have been encoded in later turns, never were.
        #expect(try store.cachedObjectCount(of: Note.self) == 0)
        try await store.close()
    }

    @Test func aLargeSaveInABatchCommitsWithTheBatchBeforeLaterFetches() async throws {
        let store = try await Fixtures.openStore()
        let notes = (0..<1_200).map { Note(uniqueID: Int64(80_000 + $0), text: "n\($0)") }
        try store.performBatch {
            try store.save(notes)
            try store.delete(Note.self, ids: [80_000])
        }
        #expect(try await store.count(Note.self, where: "uniqueID >= 80000") == 1_199)
        try await store.close()
    }
}
