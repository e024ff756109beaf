import ExampleTestSupport
import Foundation
import QSData
import Testing
@testable import VesperCore

@MainActor
@Suite struct TagTests {
    @Test func spellingsThatDifferInCaseOrSpacingAreOneTag() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let first = try await vesper.userDidCreateNote(text: "one", tagNames: ["Ice Cream"])
        let second = try await vesper.userDidCreateNote(text: "two", tagNames: ["ice  cream", "ICE CREAM"])
        let third = try await vesper.userDidCreateNote(text: "three", tagNames: ["ICE CREAM"])
        try await vesper.flush()
        #expect(try vesper.tags().map(\.name) == ["Ice Cream"])
        #expect(second.tags.count == 1)
        #expect(first.tags[0] === second.tags[0] && second.tags[0] === third.tags[0])
        #expect(try await vesper.store.fetchRows("SELECT uniqueID, name FROM tags") == [[.text("ice cream"), .text("Ice Cream")]])
        try await expectIntegrity(vesper)
        try await vesper.close()
    }

    @Test func tagOrderIsKept() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let note = try await vesper.userDidCreateNote(text: "one", tagNames: ["Zeta", "alpha", "Mu"])
        try vesper.userDidUpdateTags(["Mu", "Zeta", "alpha"], of: note)
        try await expectIntegrity(vesper)
        try await vesper.close()
        let reopened = try await openController(folder)
        #expect(try await reopened.note(id: note.uniqueID).tags.map(\.name) == ["Mu", "Zeta", "alpha"])
        try await expectIntegrity(reopened)
        try await reopened.close()
    }

    @Test func caseOnlyRenameChangesTheNameOnEveryNoteWithoutDuplicating() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let notes = [
            try await vesper.userDidCreateNote(text: "one", tagNames: ["ice cream"]),
            try await vesper.userDidCreateNote(text: "two", tagNames: ["Food", "ice cream"]),
        ]
        try vesper.userDidRenameTag("ice cream", to: "Ice Cream")
        #expect(notes.map { $0.tags.map(\.name) } == [["Ice Cream"], ["Food", "Ice Cream"]])
        try await expectIntegrity(vesper)
        try await vesper.close()

        let reopened = try await openController(folder)
        #expect(try reopened.tags().map(\.name) == ["Food", "Ice Cream"])
        let fetched = try await reopened.notes(ids: notes.map(\.uniqueID))
        #expect(fetched.map { $0.tags.map(\.name) } == [["Ice Cream"], ["Food", "Ice Cream"]])
        #expect(try await reopened.store.fetchRows("SELECT count(*) FROM tags") == [[.integer(2)]])
        try await expectIntegrity(reopened)
        try await reopened.close()
    }

    @Test func renameThatChangesMoreThanCaseIsRefused() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        let note = try await vesper.userDidCreateNote(text: "one", tagNames: ["ice cream"])
        try await vesper.flush()
        #expect(throws: VesperError.tagRenameNotCaseOnly(from: "ice cream", to: "Gelato")) {
            try vesper.userDidRenameTag("ice cream", to: "Gelato")
        }
        #expect(throws: VesperError.tagNotFound("sorbet")) {
            try vesper.userDidRenameTag("sorbet", to: "Sorbet")
        }
        #expect(note.tags.map(\.name) == ["ice cream"])
        try await expectIntegrity(vesper)
        try await vesper.close()
    }

    @Test func tagCacheAnswersWithoutSQL() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        try await vesper.userDidCreateNote(text: "one", tagNames: ["A", "B"])
        try await expectIntegrity(vesper)
        try await vesper.close()

        let reopened = try await openController(folder)
        var names: [String] = []
        var fetched: VSTag?
        let log = try await reopened.store.recordStatements {
            names = try reopened.tags().map(\.name)
            fetched = try await reopened.store.fetch(VSTag.self, id: "a")
        }
        #expect(log.count == 0)
        #expect(names == ["A", "B"])
        #expect(fetched?.name == "A")
        try await expectIntegrity(reopened)
        try await reopened.close()
    }
}
