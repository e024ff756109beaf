import Foundation
import QSData
import Testing

@MainActor
@Suite struct RelationshipTests {
    /// 1,000 notes, each with three tags from a pool of five (one tag shared by all) and two
    /// attachments of its own.
    private func saveThousandNotes(in store: QSStore, tagPrefix: String) throws -> [String] {
        let shared = Tag(name: "\(tagPrefix) Shared")
        let pool = [shared] + (1...4).map { Tag(name: "\(tagPrefix) Tag \($0)") }
        var notes: [Note] = []
        for index in 0..<1_000 {
            let tags: [Tag] = [pool[index % 4 + 1], shared, pool[(index + 1) % 4 + 1]]
            let attachments = [Attachment(uniqueID: "\(index)-a"), Attachment(uniqueID: "\(index)-b")]
            notes.append(Note(uniqueID: Int64(1_000 + index), text: "Note \(index)", tags: tags, attachments: attachments))
        }
        try store.save(notes)
        return pool.map(\.uniqueID)
    }

    @Test func fetchingAThousandParentsTakesFiveStatements() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let writer = try await Fixtures.openStore(url: url, tagsCached: false)
        let tagIDs = try saveThousandNotes(in: writer, tagPrefix: "five")
        try await writer.close()

        let store = try await Fixtures.openStore(url: url, tagsCached: false)
        let before = Tag.materialisations.count(tagIDs)
        var notes: [Note] = []
        let log = try await store.recordStatements {
            notes = try await store.fetchAll(Note.self, orderBy: "uniqueID")
        }
        #expect(notes.count == 1_000)
        #expect(log.count == 5, "\(log)")
        // Five distinct tags, each made once however many notes share it.
        #expect(Tag.materialisations.count(tagIDs) - before == 5)
        let sharedTags = notes.map { $0.tags[1] }
        #expect(sharedTags.allSatisfy { $0 === sharedTags[0] })
        #expect(notes[3].tags.map(\.name) == ["five Tag 4", "five Shared", "five Tag 1"])
        #expect(notes[3].attachments.map(\.uniqueID) == ["3-a", "3-b"])
    }

    @Test func cachedChildrenCostNoStatements() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let writer = try await Fixtures.openStore(url: url)
        let tagIDs = try saveThousandNotes(in: writer, tagPrefix: "three")
        try await writer.close()

        let store = try await Fixtures.openStore(url: url, attachmentsCached: true)  // both fetched at startup
        let before = Tag.materialisations.count(tagIDs)
        var notes: [Note] = []
        let log = try await store.recordStatements {
            notes = try await store.fetchAll(Note.self)
        }
        #expect(log.count == 3, "\(log)")  // tags lookup, attachments lookup, notes
        #expect(Tag.materialisations.count(tagIDs) == before)
        #expect(notes.count == 1_000)
    }

    @Test func orderSurvivesReordersRemovalsAndDuplicates() async throws {
        let store = try await Fixtures.openStore()
        let (a, b, c, d) = (Tag(name: "a"), Tag(name: "b"), Tag(name: "c"), Tag(name: "d"))
        let note = Note(uniqueID: 5_000, text: "ordered", tags: [c, a, b])
        try store.save(note)

        func storedOrder() async throws -> [String] {
            let rows = try await store.fetchRows("SELECT tagID FROM tagsNotesLookup WHERE noteID = 5000 ORDER BY ix")
            return rows.compactMap { if case .text(let id) = $0.first { id } else { nil } }
        }
        #expect(try await storedOrder() == ["c", "a", "b"])

        note.tags = [b, c, a]
        try store.save(note)
        #expect(try await storedOrder() == ["b", "c", "a"])

        note.tags = [c]
        try store.save(note)
        #expect(try await storedOrder() == ["c"])

        // A tag listed twice keeps its first position.
        note.tags = [d, c, d, a, c]
        try store.save(note)
        #expect(try await storedOrder() == ["d", "c", "a"])

        note.tags = []
        try store.save(note)
        #expect(try await storedOrder() == [])
    }

    @Test func unchangedRelationshipsAreNotRewritten() async throws {
        let store = try await Fixtures.openStore()
        let note = Note(uniqueID: 5_001, text: "same", tags: [Tag(name: "x"), Tag(name: "y")])
        try store.save(note)
        try await store.flush()

        let log = try await store.recordStatements { try store.save(note) }
        let writes = log.statements.filter { $0.hasPrefix("DELETE") || $0.contains("INTO \"tagsNotesLookup\"") }
        #expect(writes.isEmpty, "\(log)")

        note.tags.reverse()
        let reorder = try await store.recordStatements { try store.save(note) }
        // One child keeps its row; the other moves before it.
        #expect(reorder.statements == ["UPDATE \"tagsNotesLookup\" SET \"ix\" = ? WHERE \"noteID\" = ? AND \"tagID\" = ?"])
    }

    @Test func deletedChildrenBecomeVisibleAsOrphansAndAreSkipped() async throws {
        let store = try await Fixtures.openStore()
        let attachment = Attachment(uniqueID: "kept")
        let note = Note(uniqueID: 5_002, text: "parent", attachments: [attachment])
        try store.save(note)
        try store.save(Attachment(uniqueID: "loose"))
        #expect(try await store.orphanIDs(of: Attachment.self) == ["loose"])

        try store.delete([note])
        #expect(Set(try await store.orphanIDs(of: Attachment.self)) == ["kept", "loose"])
        try await store.deleteOrphans(of: Attachment.self)
        #expect(try await store.count(Attachment.self) == 0)
    }

    /// A fetch finds each parent's lookup rows by following the order they were read in; parents
    /// read in another order, and parents with no children between the others, must still get
    /// exactly their own children, and saving them unchanged must write no note and no lookup row.
    @Test func childrenMatchTheirParentsInAnyFetchOrder() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let writer = try await Fixtures.openStore(url: url, tagsCached: false)
        let pool = (0..<3).map { Tag(name: "order Tag \($0)") }
        var expectedTags: [Int64: [String]] = [:]
        var notes: [Note] = []
        for index in 0..<30 {
            // Every third note has no tags and no attachments.
            let tags = index % 3 == 0 ? [] : [pool[index % 3], pool[(index + 1) % 3]]
            let attachments = index % 3 == 0 ? [] : [Attachment(uniqueID: "order-\(index)")]
            let id = Int64(5_000 + index)
            expectedTags[id] = tags.map(\.name)
            notes.append(Note(uniqueID: id, text: "Note \(29 - index % 7)", tags: tags, attachments: attachments))
        }
        try writer.save(notes)
        try await writer.close()

        for order in ["uniqueID", "uniqueID DESC", "text, uniqueID DESC"] {
            let store = try await Fixtures.openStore(url: url, tagsCached: false)
            let fetched = try await store.fetchAll(Note.self, orderBy: order)
            #expect(fetched.count == 30)
            for note in fetched {
                #expect(note.tags.map(\.name) == expectedTags[note.uniqueID], "\(order): note \(note.uniqueID)")
                let attachmentIDs = note.tags.isEmpty ? [] : ["order-\(note.uniqueID - 5_000)"]
                #expect(note.attachments.map(\.uniqueID) == attachmentIDs, "\(order): note \(note.uniqueID)")
            }
            let log = try await store.recordStatements {
                try store.save(fetched)
                try await store.flush()
            }
            // No note, no lookup row, and no attachment: the attachments (a value type the store
            // keeps no copy of) were read with their notes, so their rows are known to exist.
            #expect(log.count == 0, "\(order): \(log)")
            try await store.close()
        }
    }
}
