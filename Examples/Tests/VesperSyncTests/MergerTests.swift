import ExampleTestSupport
import Foundation
import Testing
import VesperCore
import VesperSync

/// The mergers' per-property rules for notes, tags and deletions, applied through the sync path.
@MainActor
@Suite struct MergerTests {
    let folder: TestFolder
    let vesper: VSDataController
    let t0 = VSSyncDate.date(milliseconds: 1_700_000_000_000)

    init() async throws {
        folder = try TestFolder()
        vesper = try await VSDataController.open(at: try folder.databaseURL("merge"))
        let t0 = self.t0
        vesper.now = { t0 }
    }

    func serverNote(_ note: VSNote, text: String? = nil, textDate: Date? = nil, archived: Bool = false, archivedDate: Date? = nil,
                    sortDate: Date? = nil, sortDateDate: Date? = nil, tags: [String] = [], tagsDate: Date? = nil,
                    attachments: [VSSyncAttachment] = [], attachmentsDate: Date? = nil) -> VSSyncNote {
        VSSyncNote(noteID: note.uniqueID, text: text, archived: archived, creationDate: note.creationDate, sortDate: sortDate,
                   textModificationDate: textDate, archivedModificationDate: archivedDate, sortDateModificationDate: sortDateDate,
                   tagsModificationDate: tagsDate, attachmentsModificationDate: attachmentsDate, tagNames: tags, attachments: attachments)
    }

    func merge(_ notes: [VSSyncNote], pending: Set<Int64> = []) async throws -> VSSyncNoteMerger.Outcome {
        let outcome = try await VSSyncNoteMerger(dataController: vesper).merge(notes, pendingDeletions: pending)
        try await vesper.flush()
        return outcome
    }

    @Test func laterServerTextWinsWithItsDateAndLeavesTheLocalModificationDate() async throws {
        let note = try await vesper.userDidCreateNote(text: "Local")
        let later = t0 + 5
        let outcome = try await merge([serverNote(note, text: "Server", textDate: later)])
        #expect(outcome.updated == [note.uniqueID])
        #expect(note.text == "Server" && note.textModificationDate == later && note.truncatedText == "Server")
        #expect(note.modificationDate == t0)
        let stored = try await reopenedNote(note.uniqueID)
        #expect(stored.text == "Server" && stored.modificationDate == t0)
    }

    @Test func earlierEqualOrMissingServerDatesLose() async throws {
        let note = try await vesper.userDidCreateNote(text: "Local")
        let outcome = try await merge([
            serverNote(note, text: "Earlier", textDate: t0 - 1, archived: true, archivedDate: t0, tags: ["X"], tagsDate: nil),
        ])
        #expect(outcome.updated.isEmpty)
        #expect(note.text == "Local" && !note.archived && note.tags.isEmpty)
    }

    @Test func sameMillisecondIsNotLater() async throws {
        let note = try await vesper.userDidCreateNote(text: "Local")
        _ = try await merge([serverNote(note, text: "Same ms", textDate: t0 + 0.0004)])
        #expect(note.text == "Local")
    }

    @Test func aMissingLocalDateLosesToAnyServerDate() async throws {
        let created = try await vesper.userDidCreateNote(text: "x")
        let newNote = VSSyncNote(noteID: 5_000, text: "Server", creationDate: t0, sortDate: t0)
        _ = try await merge([newNote])                   // created with no text date
        let note = try await vesper.note(id: 5_000)
        #expect(note.textModificationDate == nil)
        _ = try await merge([serverNote(note, text: "Dated", textDate: VSSyncNote.oldDate)])
        #expect(note.text == "Dated")
        #expect(created.text == "x")
    }

    @Test func eachPropertyMergesOnItsOwn() async throws {
        let note = try await vesper.userDidCreateNote(text: "Local text", tagNames: ["Keep"])
        let laterSort = t0 + 100
        _ = try await merge([serverNote(note, text: "Old server text", textDate: t0 - 10, archived: true, archivedDate: t0 + 1,
                                        sortDate: laterSort, sortDateDate: t0 + 2, tags: ["Server"], tagsDate: t0 - 1)])
        #expect(note.text == "Local text" && note.tags.map(\.name) == ["Keep"])
        #expect(note.archived && note.archivedModificationDate == t0 + 1)
        // The sort date's own date is copied too (the original client forgot it), so the same change doesn't win again.
        #expect(note.sortDate == laterSort && note.sortDateModificationDate == t0 + 2)
        let again = try await merge([serverNote(note, archived: true, archivedDate: t0 + 1, sortDate: laterSort, sortDateDate: t0 + 2)])
        #expect(again.updated.isEmpty)
    }

    @Test func laterTagsReplaceTheOrderedListAndNoneRemovesAll() async throws {
        let note = try await vesper.userDidCreateNote(text: "Tagged", tagNames: ["One", "Two"])
        _ = try await merge([serverNote(note, tags: ["Two", "three", "One"], tagsDate: t0 + 1)])
        #expect(note.tags.map(\.name) == ["Two", "three", "One"])
        #expect(try vesper.tag(named: "three")?.nameModificationDate == nil)
        _ = try await merge([serverNote(note, tags: [], tagsDate: t0 + 2)])
        #expect(note.tags.isEmpty && note.tagsModificationDate == t0 + 2)
        #expect(try await reopenedNote(note.uniqueID).tags.isEmpty)
    }

    @Test func laterAttachmentsReplaceTheListAndTheThumbnail() async throws {
        let note = try await vesper.userDidCreateNote(text: "Picture")
        let attachment = VSSyncAttachment(uniqueID: "6F9619FF-8B86-4D01-B42D-00C04FC964FF", mimeType: "image/jpeg", width: 30, height: 20)
        _ = try await merge([serverNote(note, attachments: [attachment], attachmentsDate: t0 + 1)])
        #expect(note.attachments == [attachment.attachment] && note.thumbnailID == attachment.uniqueID)
        _ = try await merge([serverNote(note, attachments: [], attachmentsDate: t0 + 2)])
        #expect(note.attachments.isEmpty && note.thumbnailID == nil)
    }

    @Test func unknownNotesAreCreatedWithServerValuesAndNoLocalModificationDate() async throws {
        let attachment = VSSyncAttachment(uniqueID: "ABCD", mimeType: "image/png", width: 1, height: 1)
        let server = VSSyncNote(noteID: 4_242_424_242, text: "From elsewhere https://example.com", archived: true,
                                creationDate: t0 - 100, sortDate: t0 - 50, textModificationDate: t0 - 40, archivedModificationDate: t0 - 30,
                                sortDateModificationDate: t0 - 20, tagsModificationDate: t0 - 10, attachmentsModificationDate: t0 - 5,
                                tagNames: ["Work", "Home"], attachments: [attachment])
        let outcome = try await merge([server])
        #expect(outcome.created == [4_242_424_242])
        #expect(try await vesper.countOfNotesToUpload() == 0)
        let note = try await reopenedNote(4_242_424_242)
        #expect(VSSyncNote(note) == server)
        #expect(note.modificationDate == nil && note.links == ["https://example.com"])
    }

    @Test func notesDeletedHereAreNotResurrectedAndIDZeroIsIgnored() async throws {
        let server = VSSyncNote(noteID: 7_777, text: "Deleted here", creationDate: t0, sortDate: t0)
        let zero = VSSyncNote(noteID: 0, text: "Zero", creationDate: t0, sortDate: t0)
        let outcome = try await merge([server, zero], pending: [7_777])
        #expect(outcome.skippedAsDeleted == [7_777] && outcome.created.isEmpty)
        #expect(try await vesper.allNotes().isEmpty)
    }

    // MARK: Tags

    @Test func serverTagsNewHereKeepTheServerDate() async throws {
        let changed = try VSSyncTagMerger(dataController: vesper).merge([VSSyncTag(name: "Work", nameModificationDate: t0 - 500)])
        #expect(changed == ["Work"])
        #expect(try vesper.tag(named: "work")?.nameModificationDate == t0 - 500)
    }

    @Test func aLaterServerCaseChangeWinsAndAnEarlierOneDoesNot() async throws {
        _ = try await vesper.userDidCreateNote(text: "x", tagNames: ["paris"])
        let merger = VSSyncTagMerger(dataController: vesper)
        #expect(try merger.merge([VSSyncTag(name: "PARIS", nameModificationDate: t0 - 1)]).isEmpty)
        #expect(try vesper.tag(named: "paris")?.name == "paris")
        #expect(try merger.merge([VSSyncTag(name: "Paris", nameModificationDate: t0 + 1)]) == ["Paris"])
        #expect(try vesper.tag(named: "paris")?.name == "Paris")
        #expect(try vesper.tag(named: "paris")?.nameModificationDate == t0 + 1)
        try await vesper.flush()
        #expect(try await vesper.note(id: try await vesper.allNotes()[0].uniqueID).tags.map(\.name) == ["Paris"])
    }

    func reopenedNote(_ id: Int64) async throws -> VSNote {
        try await vesper.close()
        let reopened = try await VSDataController.open(at: try folder.databaseURL("merge"))
        return try await reopened.note(id: id)
    }
}
