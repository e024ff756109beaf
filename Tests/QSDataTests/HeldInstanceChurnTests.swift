import Foundation
import QSData
import Testing

/// Many instances held, let go, fetched again and deleted in turn: each row keeps exactly one
/// instance while the app holds one, and none once it lets go, for integer and text uniqueIDs.
@MainActor
@Suite struct HeldInstanceChurnTests {
    @Test func integerIDsKeepOneInstanceEachThroughReleasesAndDeletes() async throws {
        let store = try await Fixtures.openStore()
        try store.save((0 ..< 3_000).map { Note(uniqueID: Int64($0), text: "note \($0)") })
        try await store.flush()

        var all: [Note]? = try await store.fetchAll(Note.self)
        let kept = try #require(all).filter { $0.uniqueID % 3 == 0 }
        all = nil
        #expect(try store.cachedObjectCount(of: Note.self) == 1_000)

        // Fetched again: the kept instances come back, the others are made afresh.
        let again = try await store.fetchAll(Note.self, orderBy: "uniqueID")
        #expect(again.count == 3_000)
        for note in kept { #expect(again[Int(note.uniqueID)] === note) }

        // Deleting every other kept note forgets those rows' instances; the rest stay found.
        let deleted = kept.filter { $0.uniqueID % 2 == 0 }.map(\.uniqueID)
        try store.delete(Note.self, ids: deleted)
        try await store.flush()
        #expect(try store.cachedObjectCount(of: Note.self) == 2_500)
        for note in kept where note.uniqueID % 2 != 0 {
            #expect(try await store.fetch(Note.self, id: note.uniqueID) === note)
        }
        #expect(try await store.fetch(Note.self, ids: deleted).isEmpty)
        _ = again
    }

    @Test func textIDsKeepOneInstanceEachThroughReleasesAndDeletes() async throws {
        let store = try await Fixtures.openStore(tagsCached: false)
        try store.save((0 ..< 2_000).map { Tag(name: "Tag \($0)") })
        try await store.flush()

        var all: [Tag]? = try await store.fetchAll(Tag.self)
        let kept = try #require(all).filter { $0.uniqueID.hasSuffix("7") }
        all = nil
        #expect(kept.count == 200)
        #expect(try store.cachedObjectCount(of: Tag.self) == 200)

        let deleted = kept.prefix(100).map(\.uniqueID)
        try store.delete(Tag.self, ids: deleted)
        let again = try await store.fetchAll(Tag.self)
        #expect(again.count == 1_900)
        #expect(try store.cachedObjectCount(of: Tag.self) == 1_900)
        for tag in kept.dropFirst(100) {
            #expect(again.contains { $0 === tag })
            #expect(try await store.fetch(Tag.self, id: tag.uniqueID) === tag)
        }
    }

    @Test func onlyTheRoundOfSavedNotesStillHeldStaysCached() async throws {
        let store = try await Fixtures.openStore()
        // Each round holds 500 new notes and lets the previous round's go.
        var held: [Note] = []
        for round in 0 ..< 20 {
            held = (0 ..< 500).map { Note(uniqueID: Int64(round * 500 + $0), text: "round \(round)") }
            try store.save(held)
        }
        try await store.flush()
        #expect(try store.cachedObjectCount(of: Note.self) == 500)
        #expect(try await store.fetch(Note.self, id: 9_750) === held[250])
    }
}
