import Foundation
import QSData
import Testing

/// A save leaves out, unencoded, each held instance that marked nothing, once every earlier write
/// has settled: the instance then shows what the database holds of its row. While a write is in
/// flight, in a batch, or for a type with relationships, every object is encoded as before.
@MainActor
@Suite struct UnchangedInstanceTests {
    /// Four tags, held uniqued (fetched afresh once the saved ones are let go) or permanently
    /// cached (the saved instances themselves), each encoded `timesEncoded` times so far.
    private func openStore(cachedPermanently: Bool = false) async throws -> (QSStore, [TrackedTag]) {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(tagsCached: cachedPermanently),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL), types: [Note.self, TrackedTag.self, Attachment.self])
        try store.save((0..<4).map { TrackedTag(uniqueID: "t\($0)", name: "Tag \($0)") })
        try await store.flush()
        return (store, try await store.fetchAll(TrackedTag.self, orderBy: "uniqueID"))
    }

    /// How many times each tag was encoded since `before`.
    private func encodings(_ tags: [TrackedTag], since before: [Int]) -> [Int] {
        zip(tags, before).map { $0.timesEncoded - $1 }
    }

    private func encodings(_ notes: [TrackedNote], since before: [Int]) -> [Int] {
        zip(notes, before).map { $0.timesEncoded - $1 }
    }

    private func names(in store: QSStore) async throws -> [SQLValue] {
        try await store.fetchRows("SELECT name FROM tags ORDER BY uniqueID").map { $0[0] }
    }

    @Test(arguments: [false, true])
    func heldInstancesThatMarkedNothingAreNotEncoded(cachedPermanently: Bool) async throws {
        let (store, tags) = try await openStore(cachedPermanently: cachedPermanently)
        let before = tags.map(\.timesEncoded)
        let unchanged = try await store.recordStatements {
            try store.save(tags)
            try await store.flush()
        }
        #expect(unchanged.count == 0)
        #expect(encodings(tags, since: before) == [0, 0, 0, 0])

        tags[1].name = "Renamed"
        let renamed = try await store.recordStatements {
            try store.save(tags)
            try await store.flush()
        }
        #expect(renamed.statements == [#"UPDATE "tags" SET "name" = ? WHERE "uniqueID" = ?"#])
        #expect(encodings(tags, since: before) == [0, 1, 0, 0])
        #expect(try await names(in: store) == [.text("Tag 0"), .text("Renamed"), .text("Tag 2"), .text("Tag 3")])

        // An instance the app made for a known row is not the one held: encoded, written whole.
        let stranger = TrackedTag(uniqueID: "t2", name: "Stranger")
        try store.save(stranger)
        try await store.flush()
        #expect(stranger.timesEncoded == 1)
        #expect(try await names(in: store)[2] == .text("Stranger"))
        try await store.close()
    }

    @Test func whileAWriteIsInFlightOrInABatchEveryObjectIsEncoded() async throws {
        let (store, tags) = try await openStore()
        let before = tags.map(\.timesEncoded)
        try store.save(tags)  // every earlier write settled: none encoded
        try store.save(tags)  // the first is in flight: all encoded
        #expect(encodings(tags, since: before) == [1, 1, 1, 1])
        try await store.flush()

        try store.performBatch { try store.save(tags) }
        #expect(encodings(tags, since: before) == [2, 2, 2, 2])
        try await store.flush()
        try store.save(tags)
        #expect(encodings(tags, since: before) == [2, 2, 2, 2])
        try await store.flush()
        try await store.close()
    }

    /// An update `where:` patches its instances once it commits. A save of one of them made
    /// before that holds the old name, unmarked: it must still write it, being the later write.
    @Test func aSaveMadeWhileAnUpdateWhereIsInFlightStillWritesWhatItHeld() async throws {
        let (store, tags) = try await openStore()
        try store.update(TrackedTag.self, where: "uniqueID = 't3'", set: ["name": "Bulk"])
        try store.save(tags[3])
        try await store.flush()
        #expect(tags[3].name == "Tag 3")
        #expect(try await names(in: store)[3] == .text("Tag 3"))

        // Alone, the update patches the instance, which then has nothing to write.
        try store.update(TrackedTag.self, where: "uniqueID = 't3'", set: ["name": "Bulk again"])
        try await store.flush()
        let log = try await store.recordStatements {
            try store.save(tags[3])
            try await store.flush()
        }
        #expect(log.count == 0)
        #expect(tags[3].name == "Bulk again")
        #expect(try await names(in: store)[3] == .text("Bulk again"))
        try await store.close()
    }

    /// SQL run outside the store's saves changes the row; the instance takes the new name and, with
    /// nothing marked, has nothing to write: the row keeps it.
    @Test func anotherWritersChangeIsNotWrittenOver() async throws {
        let (store, tags) = try await openStore()
        tags[0].name = "Mine"
        try await store.execute("UPDATE tags SET name = 'Theirs ' || uniqueID WHERE uniqueID IN ('t0', 't1')")
        try await store.flush()
        #expect(tags[0].name == "Mine" && tags[1].name == "Theirs t1")
        let before = tags.map(\.timesEncoded)
        let log = try await store.recordStatements {
            try store.save(tags)
            try await store.flush()
        }
        #expect(log.statements == [#"UPDATE "tags" SET "name" = ? WHERE "uniqueID" = ?"#])
        #expect(encodings(tags, since: before) == [1, 0, 0, 0])
        #expect(try await names(in: store) == [.text("Mine"), .text("Theirs t1"), .text("Tag 2"), .text("Tag 3")])
        try await store.close()
    }

    /// A type with relationships is encoded every time: a save compares its children.
    @Test func aTypeWithRelationshipsIsAlwaysEncoded() async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(), schema: QSSchema(creationSQL: Fixtures.schemaSQL),
            types: [TrackedNote.self, Tag.self, Attachment.self])
        try store.save((0..<3).map { TrackedNote(uniqueID: $0, text: "note \($0)") })
        try await store.flush()
        let notes = try await store.fetchAll(TrackedNote.self, orderBy: "uniqueID")
        let before = notes.map(\.timesEncoded)
        let log = try await store.recordStatements {
            try store.save(notes)
            try await store.flush()
        }
        #expect(log.count == 0)
        #expect(encodings(notes, since: before) == [1, 1, 1])
        try await store.close()
    }

    /// Random renames, saves of some or all tags, saves that fail, bulk updates by IDs and
    /// `where:`, the app's own SQL and batches, flushed now and then. Whatever the order, once
    /// everything has settled each tag that marked nothing shows its row, and a save of every tag
    /// leaves the rows and the tags alike: a write's patch or restore that reaches the main actor
    /// after later writes leaves what they set.
    @Test(arguments: Array(1 ... 24) as [UInt64])
    func randomWritesLeaveTheRowsAndTheInstancesAlike(seed: UInt64) async throws {
        try await randomWritesLeaveTheRowsAndTheInstancesAlike(TrackedTag.self, seed: seed)
    }

    /// The same, for tags that take a new name alone: a bulk update patches them column by
    /// column, and a later save of the app's must win there too.
    @Test(arguments: Array(1 ... 24) as [UInt64])
    func randomWritesLeaveTheRowsAndTheInstancesAlikeWhenColumnsArePatchedAlone(seed: UInt64) async throws {
        try await randomWritesLeaveTheRowsAndTheInstancesAlike(ColumnTrackedTag.self, seed: seed)
    }

    private func randomWritesLeaveTheRowsAndTheInstancesAlike<SomeTag: RenamableTag>(_: SomeTag.Type, seed: UInt64) async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL), types: [Note.self, SomeTag.self, Attachment.self])
        try store.save((0..<4).map { SomeTag(uniqueID: "t\($0)", name: "Tag \($0)") })
        try await store.flush()
        let tags = try await store.fetchAll(SomeTag.self, orderBy: "uniqueID")
        try await store.execute("""
            CREATE TEMP TRIGGER refuseName BEFORE UPDATE OF name ON tags WHEN NEW.name LIKE 'refused%'
            BEGIN SELECT RAISE(ABORT, 'name refused'); END
            """)
        var random = SeededGenerator(seed: seed)
        var serial = 0
        func newName(_ prefix: String = "n") -> String {
            serial += 1
            return "\(prefix)\(serial)"
        }
        func someTags() -> [SomeTag] {
            tags.filter { _ in Bool.random(using: &random) }
        }
        func settledTagsShowTheirRows() async throws {
            do {
                try await store.flush()
            } catch let failure as QSWriteError {
                #expect(failure.wasRolledBack, "only the refused saves fail")
            }
            let rows = try await names(in: store)
            for (tag, row) in zip(tags, rows) where tag.changedProperties.isEmpty {
                #expect(row == .text(tag.name), "seed \(seed): \(tag.uniqueID) holds \(tag.name), its row \(row)")
            }
        }
        for _ in 0 ..< 60 {
            let tag = tags[Int.random(in: 0 ..< tags.count, using: &random)]
            switch Int.random(in: 0 ..< 9, using: &random) {
            case 0, 1: tag.name = newName()
            case 2: try store.save(someTags())
            case 3: try store.save(tags)
            case 4: try store.update(SomeTag.self, where: "uniqueID = ?", arguments: [.text(tag.uniqueID)], set: ["name": newName("w")])
            case 5: try await store.execute("UPDATE tags SET name = ? WHERE uniqueID = ?", [.text(newName("sql")), .text(tag.uniqueID)])
            case 6: try store.update(SomeTag.self, ids: [tag.uniqueID], set: ["name": newName("i")])
            case 7:
                tag.name = newName("refused")
                try store.save(tag)
            default:
                try store.performBatch {
                    try store.update(SomeTag.self, where: "uniqueID = ?", arguments: [.text(tag.uniqueID)], set: ["name": newName("b")])
                    try store.save(someTags())
                }
            }
            if Int.random(in: 0 ..< 4, using: &random) == 0 { try await settledTagsShowTheirRows() }
        }
        for tag in tags where tag.name.hasPrefix("refused") { tag.name = newName() }
        try store.save(tags)
        try await settledTagsShowTheirRows()
        #expect(tags.allSatisfy { $0.changedProperties.isEmpty })
        try await store.close()
    }
}
