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

    @Test func whileALargeSaveIsEncodedNoTransactionIsOpenAndLaterWorkWaitsInOrder() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await Fixtures.openStore(url: url)
        let notes = (0..<2_600).map { Note(uniqueID: Int64($0), text: "n\($0)") }
        try store.save(notes)
        // Later work, handed over while the chunks after the first are still to be encoded.
        notes[0].text = "edited after the large save"
        try store.save(notes[0])
        let counted = Task { try await store.count(Note.self, where: "text = 'edited after the large save'") }
        // The main actor has not yet given a turn to the encoding: no transaction holds the file.
        let other = try SQLiteConnection(path: url.path)
        try other.execute("PRAGMA busy_timeout = 0")
        try other.execute("BEGIN IMMEDIATE")
        try other.execute("ROLLBACK")
        #expect(try await counted.value == 1)
        #expect(try await store.count(Note.self) == 2_600)
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
