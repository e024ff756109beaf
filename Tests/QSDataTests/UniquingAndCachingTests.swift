import Foundation
import QSData
import Testing

@MainActor
@Suite struct UniquingAndCachingTests {
    @Test func aLiveInstanceIsReturnedAgainWithoutMaterialisingItsRow() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let writer = try await Fixtures.openStore(url: url)
        try writer.save(Note(uniqueID: 7_001, text: "unique"))
        try await writer.close()

        let store = try await Fixtures.openStore(url: url)
        let first = try #require(try await store.fetch(Note.self, id: 7_001))
        let madeOnce = Note.materialisations.count(["7001"])
        let again = try #require(try await store.fetch(Note.self, where: "uniqueID = ?", arguments: [7_001]).first)
        let byID = try #require(try await store.fetch(Note.self, id: 7_001))
        #expect(first === again)
        #expect(first === byID)
        #expect(Note.materialisations.count(["7001"]) == madeOnce)
    }

    @Test func aReleasedInstanceLeavesTheCache() async throws {
        let store = try await Fixtures.openStore()
        try store.save((0..<50).map { Note(uniqueID: Int64(8_000 + $0), text: "n\($0)") })
        try await store.flush()
        #expect(try store.cachedObjectCount(of: Note.self) == 0)

        var notes: [Note]? = try await store.fetchAll(Note.self)
        #expect(notes?.count == 50)
        #expect(try store.cachedObjectCount(of: Note.self) == 50)
        notes = nil
        #expect(try store.cachedObjectCount(of: Note.self) == 0)
    }

    @Test func aSavedInstanceIsTheOneLaterFetchesReturn() async throws {
        let store = try await Fixtures.openStore()
        let note = Note(uniqueID: 7_002, text: "mine")
        try store.save(note)
        let fetched = try await store.fetchAll(Note.self)
        #expect(fetched.count == 1)
        #expect(fetched[0] === note)
    }

    @Test func fetchByIDOfAPermanentlyCachedTypeRunsNoSQL() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let writer = try await Fixtures.openStore(url: url)
        try writer.save([Tag(name: "Cached"), Tag(name: "Other")])
        try await writer.close()

        let store = try await Fixtures.openStore(url: url)  // Tag: cachePermanently + fetchAllAtStartup
        var tag: Tag?
        var tags: [Tag] = []
        let log = try await store.recordStatements {
            tag = try await store.fetch(Tag.self, id: "cached")
            tags = try await store.fetch(Tag.self, ids: ["other", "cached"])
        }
        #expect(log.count == 0, "\(log)")
        #expect(tag?.name == "Cached")
        #expect(tags.map(\.name) == ["Other", "Cached"])
        #expect(Set(try store.cachedObjects(of: Tag.self).map(\.name)) == ["Cached", "Other"])
    }

    @Test func permanentlyCachedValuesStayAfterTheAppLetsGo() async throws {
        let store = try await Fixtures.openStore(attachmentsCached: true)
        try store.save(Attachment(uniqueID: "kept-value"))
        try await store.flush()
        #expect(try store.cachedObjectCount(of: Attachment.self) == 1)
        var attachment: Attachment?
        let log = try await store.recordStatements {
            attachment = try await store.fetch(Attachment.self, id: "kept-value")
        }
        #expect(log.count == 0)
        #expect(attachment?.width == 640)
    }

    @Test func nonUniquedValuesAreFreshEachFetch() async throws {
        let store = try await Fixtures.openStore()
        try store.save(Attachment(uniqueID: "fresh"))
        #expect(try await store.fetch(Attachment.self, id: "fresh") == Attachment(uniqueID: "fresh"))
        #expect(try store.cachedObjectCount(of: Attachment.self) == 0)
    }
}
