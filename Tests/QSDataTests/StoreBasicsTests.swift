import Foundation
import QSData
import Testing

@MainActor
@Suite struct StoreBasicsTests {
    @Test func savedNoteComesBackWithOrderedRelationships() async throws {
        let store = try await Fixtures.openStore()
        let note = Note(uniqueID: 1_000, text: "Hello", links: ["https://example.com"],
                        tags: [Tag(name: "Work"), Tag(name: "Ideas")],
                        attachments: [Attachment(uniqueID: "a1"), Attachment(uniqueID: "a2", mimeType: "image/jpeg")])
        try store.save(note)
        try await store.flush()

        let reopened = try await Fixtures.openStore(url: store.url)
        let fetched = try #require(try await reopened.fetch(Note.self, id: 1_000))
        #expect(fetched !== note)
        #expect(fetched.text == "Hello")
        #expect(fetched.links == ["https://example.com"])
        #expect(fetched.sortDate == Fixtures.referenceDate)
        #expect(fetched.tags.map(\.name) == ["Work", "Ideas"])
        #expect(fetched.attachments == [Attachment(uniqueID: "a1"), Attachment(uniqueID: "a2", mimeType: "image/jpeg")])
    }
}
