import Foundation
import QSData
import Testing

@MainActor
@Suite struct SharedTableTests {
    @Test func savingTheFullTypeUpdatesTheLightType() async throws {
        let store = try await Fixtures.openStore()
        let note = Note(uniqueID: 9_001, text: "draft")
        try store.save(note)
        #expect(try await store.fetch(TimelineNote.self, id: 9_001)?.text == "draft")

        var changes: [QSChange] = []
        let observation = store.observeChanges { changes.append($0) }
        note.text = "final"
        note.archived = true
        try store.save(note)
        try await store.flush()

        let timeline = try #require(try await store.fetch(TimelineNote.self, id: 9_001))
        #expect(timeline.text == "final")
        #expect(timeline.archived)
        #expect(changes.count == 1)
        #expect(changes.first?.updatedIDs(of: Note.self) == [9_001])
        #expect(changes.first?.updatedIDs(of: TimelineNote.self) == [9_001])
        #expect(changes.first?.source == .app)
        observation.cancel()
    }

    @Test func savingTheLightTypePatchesTheLiveFullInstance() async throws {
        let store = try await Fixtures.openStore()
        let note = Note(uniqueID: 9_002, text: "before", tags: [Tag(name: "keep")])
        try store.save(note)
        var timeline = try #require(try await store.fetch(TimelineNote.self, id: 9_002))
        timeline.text = "after"
        try store.save(timeline)
        #expect(note.text == "after")          // the live VSNote-like instance, patched in place
        #expect(note.tags.map(\.name) == ["keep"])
        try await store.flush()
        let stored = try await store.fetchRows("SELECT text FROM notes WHERE uniqueID = 9002")
        #expect(stored == [[.text("after")]])
    }
}
