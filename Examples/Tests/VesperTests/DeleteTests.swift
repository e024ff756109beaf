import ExampleTestSupport
import Foundation
import QSData
import Testing
@testable import VesperCore

@MainActor
@Suite struct DeleteTests {
    @Test func deletingNotesRecordsTheirIDsAndRemovesLookupRowsInOneTransactionOfThreeStatements() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let drafts = (1...200).map { (text: "note \($0)", tagNames: ["T\($0 % 3)", "All"]) }
        let notes = try await vesper.userDidCreateNotes(drafts)
        let kept = try await vesper.userDidCreateNote(text: "kept", tagNames: ["All"])
        try await vesper.flush()

        let log = try await vesper.store.recordStatements { try vesper.store.delete(notes) }
        #expect(log.count == 3, "\(log)")
        // One transaction: BEGIN … COMMIT around the three statements and nothing else.
        #expect(log.all.filter { $0.uppercased().hasPrefix("BEGIN") }.count == 1)

        let deleted = try await vesper.deletedNoteIDs()
        #expect(deleted == notes.map(\.uniqueID).sorted())
        #expect(try await vesper.store.fetchRows("SELECT DISTINCT noteID FROM tagsNotesLookup") == [[.integer(kept.uniqueID)]])
        #expect(try await vesper.store.fetchRows("SELECT uniqueID FROM notes") == [[.integer(kept.uniqueID)]])
        try await expectIntegrity(vesper)
        try await vesper.close()
    }

    @Test func aFailedDeleteLeavesNeitherDeletedNotesNorMissingLookupRows() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let note = try await vesper.userDidCreateNote(text: "one", tagNames: ["A"])
        try await vesper.flush()
        // Make the lookup delete fail after the notes delete and its trigger have run.
        try await vesper.store.execute("""
            CREATE TRIGGER failLookupDelete BEFORE DELETE ON tagsNotesLookup
            BEGIN SELECT RAISE(ABORT, 'lookup delete refused'); END
            """)
        try vesper.store.delete([note])
        await #expect(throws: (any Error).self) { try await vesper.flush() }
        #expect(try await vesper.deletedNoteIDs() == [])
        #expect(try await vesper.store.fetchRows("SELECT count(*) FROM notes") == [[.integer(1)]])
        #expect(try await vesper.store.fetchRows("SELECT count(*) FROM tagsNotesLookup") == [[.integer(1)]])
        try? await vesper.close()
    }

    @Test func deletingANoteRemovesItsAttachmentsAndTheirFiles() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let note = try await vesper.userDidCreateNote(text: "with picture")
        try vesper.userDidAddAttachment(fileAt: try folder.file("p.png", SampleImages.png), to: note)
        try await vesper.flush()
        #expect(folder.attachmentFiles().count == 1)
        try await vesper.userDidDeleteNotes([note])
        #expect(folder.attachmentFiles().isEmpty)
        #expect(try await vesper.store.fetchRows("SELECT count(*) FROM attachments") == [[.integer(0)]])
        #expect(try await vesper.store.fetchRows("SELECT count(*) FROM attachmentsNotesLookup") == [[.integer(0)]])
        try await expectIntegrity(vesper)
        try await vesper.close()
    }
}
