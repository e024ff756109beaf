import ExampleTestSupport
import Foundation
import QSData
import Testing
@testable import VesperCore

@MainActor
@Suite struct UserChangeTests {
    @Test func newNoteSetsEveryDateAndCalculatedValue() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let vesper = try await openController(folder, clock: clock)
        let note = try await vesper.userDidCreateNote(text: "Read https://inessential.com today", tagNames: ["Reading"])
        #expect(VSDataController.noteIDRange.contains(note.uniqueID))
        #expect(note.creationDate == clock.date && note.sortDate == clock.date && note.modificationDate == clock.date)
        #expect(note.textModificationDate == clock.date && note.tagsModificationDate == clock.date)
        #expect(note.truncatedText == "Read https://inessential.com today")
        #expect(note.links == ["https://inessential.com"])
        try await expectIntegrity(vesper)
        try await vesper.close()

        let reopened = try await openController(folder)
        let fetched = try await reopened.note(id: note.uniqueID)
        #expect(fetched.text == note.text && fetched.links == note.links && fetched.tags.map(\.name) == ["Reading"])
        #expect(fetched.modificationDate == clock.date)
        try await expectIntegrity(reopened)
        try await reopened.close()
    }

    @Test func userDidMarkAsArchivedMovesArchivedItsDateAndTheLocalModificationDate() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let vesper = try await openController(folder, clock: clock)
        let note = try await vesper.userDidCreateNote(text: "Old idea")
        let created = clock.date
        clock.advance()
        try vesper.userDidMarkAsArchived([note])
        #expect(note.archived)
        #expect(note.archivedModificationDate == clock.date)
        #expect(note.modificationDate == clock.date)
        #expect(note.textModificationDate == created)
        try await expectIntegrity(vesper)
        try await vesper.close()

        let reopened = try await openController(folder)
        let stored = try await reopened.note(id: note.uniqueID)
        #expect(stored.archived && stored.archivedModificationDate == clock.date && stored.modificationDate == clock.date)
        try await expectIntegrity(reopened)
        try await reopened.close()
    }

    @Test func syncApplyMovesArchivedAndItsDateButNeverTheLocalModificationDate() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let vesper = try await openController(folder, clock: clock)
        let note = try await vesper.userDidCreateNote(text: "Synced elsewhere")
        try await vesper.flush()
        let localModification = note.modificationDate
        let serverDate = clock.date + 3_600
        clock.advance(7_200)

        var sources: [QSChangeSource] = []
        let observation = vesper.store.observeChanges { sources.append($0.source) }
        try vesper.applySyncValues(VSNoteServerValues(archived: VSServerValue(true, modificationDate: serverDate)), to: note)
        try await vesper.flush()
        observation.cancel()

        #expect(note.archived)
        #expect(note.archivedModificationDate == serverDate)
        #expect(note.modificationDate == localModification)
        #expect(sources == [.sync])
        try await expectIntegrity(vesper)
        try await vesper.close()

        let reopened = try await openController(folder)
        let stored = try await reopened.note(id: note.uniqueID)
        #expect(stored.archived && stored.archivedModificationDate == serverDate && stored.modificationDate == localModification)
        try await expectIntegrity(reopened)
        try await reopened.close()
    }

    @Test func syncCreatedNoteHasNoLocalModificationDate() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let date = Date(timeIntervalSince1970: 1_500_000_000)
        let note = try vesper.applySyncNewNote(
            uniqueID: 123_456, creationDate: date,
            values: VSNoteServerValues(text: VSServerValue("From the server", modificationDate: date),
                                       sortDate: VSServerValue(date, modificationDate: date),
                                       tagNames: VSServerValue(["Work"], modificationDate: date)))
        try await vesper.flush()
        #expect(note.modificationDate == nil)
        let timeline = try await vesper.timeline()
        #expect(timeline.map(\.uniqueID) == [123_456])
        #expect(timeline.first?.truncatedText == "From the server")
        try await expectIntegrity(vesper)
        try await vesper.close()
    }

    @Test func editingTextRecalculatesTruncatedTextAndLinksAndMovesTextDates() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let vesper = try await openController(folder, clock: clock)
        let note = try await vesper.userDidCreateNote(text: "First")
        clock.advance()
        try vesper.userDidUpdateText("Second, see http://example.com", of: note)
        #expect(note.truncatedText == "Second, see http://example.com")
        #expect(note.links == ["http://example.com"])
        #expect(note.textModificationDate == clock.date && note.modificationDate == clock.date)
        #expect(note.archivedModificationDate == clock.date - 60)
        try await vesper.flush()
        let timeline = try await vesper.timeline()
        #expect(timeline.first?.truncatedText == "Second, see http://example.com")
        try await expectIntegrity(vesper)
        try await vesper.close()
    }

    @Test func attachingAPictureSetsThumbnailAndStoresTheFile() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let note = try await vesper.userDidCreateNote(text: "Sundae")
        let attachment = try vesper.userDidAddAttachment(fileAt: try folder.file("s.jpg", SampleImages.jpeg128x96), to: note)
        #expect(attachment.mimeType == "image/jpeg" && attachment.width == 128 && attachment.height == 96)
        #expect(note.thumbnailID == attachment.uniqueID)
        #expect(try #require(vesper.attachmentStorage.file(for: attachment)).read() == SampleImages.jpeg128x96)
        try await expectIntegrity(vesper)
        try await vesper.close()
        let reopened = try await openController(folder)
        #expect(try await reopened.note(id: note.uniqueID).attachments == [attachment])
        try await expectIntegrity(reopened)
        try await reopened.close()
    }

    @Test func noteIDsSkipIDsUsedByNotesAndDeletedNotes() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        var proposals: [Int64] = [5_000, 6_000]
        vesper.proposeNoteID = { proposals.removeFirst() }
        let first = try await vesper.userDidCreateNote(text: "one")
        let second = try await vesper.userDidCreateNote(text: "two")
        #expect([first.uniqueID, second.uniqueID] == [5_000, 6_000])
        try await vesper.userDidDeleteNotes([first])

        // 5,000 is in deletedNotes, 6,000 is a note, 999 and 2^53 + 1 are out of range.
        proposals = [5_000, 6_000, 999, (1 << 53) + 1, 1 << 53]
        let third = try await vesper.userDidCreateNote(text: "three")
        #expect(third.uniqueID == 1 << 53)
        #expect(proposals.isEmpty)
        try await expectIntegrity(vesper)
        try await vesper.close()
    }
}
