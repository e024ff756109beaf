import Foundation
import QSData
import Testing

/// A note that marks each property the app sets, so that the store keeps no copy of its row.
final class TrackedNote: QSChangeTrackingObject {
    static let modelName = "Note"

    let uniqueID: Int64
    var text: String { didSet { changedProperties.insert("text", from: oldValue, to: text) } }
    var archived = false { didSet { changedProperties.insert("archived", from: oldValue, to: archived) } }
    var sortDate = Fixtures.referenceDate { didSet { changedProperties.insert("sortDate", from: oldValue, to: sortDate) } }
    var links: [String]? { didSet { changedProperties.insert("links", from: oldValue, to: links) } }
    var tags: [Tag] = [] { didSet { changedProperties.insert("tags", from: oldValue, to: tags) } }
    var attachments: [Attachment] = []
    var changedProperties = QSChangedProperties()
    /// How many times the store encoded the instance.
    private(set) var timesEncoded = 0

    init(uniqueID: Int64, text: String) {
        self.uniqueID = uniqueID
        self.text = text
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func update(from row: QSRow) throws {
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func encode(to row: inout QSRowEncoder) {
        timesEncoded += 1
        row["uniqueID"] = uniqueID
        row["text"] = text
        row["archived"] = archived
        row["sortDate"] = sortDate
        row["links"] = links
        row.setRelated("tags", tags)
        row.setRelated("attachments", attachments)
    }
}

/// Saving instances that say which properties they set: the columns they marked are written,
/// nothing else is compared, and no change is lost when a save fails or another writer changes
/// the row.
@MainActor
@Suite struct ChangeMarkingTests {
    private func openStore(notes count: Int) async throws -> (QSStore, [TrackedNote]) {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(), schema: QSSchema(creationSQL: Fixtures.schemaSQL),
            types: [TrackedNote.self, Tag.self, Attachment.self])
        try store.save((0..<Int64(count)).map { TrackedNote(uniqueID: $0, text: "note \($0)") })
        try await store.flush()
        return (store, try await store.fetchAll(TrackedNote.self, orderBy: "uniqueID"))
    }

    /// The row as the database holds it: text, archived.
    private func row(_ id: Int64, in store: QSStore) async throws -> [SQLValue] {
        try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = ?", [.integer(id)]).first ?? []
    }

    @Test func unchangedInstancesWriteNothingAndAMarkedColumnIsWrittenAlone() async throws {
        let (store, notes) = try await openStore(notes: 50)
        #expect(notes.allSatisfy { $0.changedProperties.isEmpty }, "reading a row marks nothing")
        let unchanged = try await store.recordStatements {
            try store.save(notes)
            try await store.flush()
        }
        #expect(unchanged.count == 0, "\(unchanged)")

        notes[3].text = "edited"
        #expect(notes[3].changedProperties.propertyNames == ["text"])
        let edited = try await store.recordStatements {
            try store.save(notes)
            try await store.flush()
        }
        #expect(edited.statements == [#"UPDATE "notes" SET "text" = ? WHERE "uniqueID" = ?"#], "\(edited)")
        #expect(notes[3].changedProperties.isEmpty, "the save took the marks")
        #expect(try await row(3, in: store) == [.text("edited"), .integer(0)])
        try await store.close()
    }

    @Test func addingOneChildToFiveThousandStillCostsItsOwnRows() async throws {
        let (store, notes) = try await openStore(notes: 1)
        notes[0].tags = (0..<5_000).map { Tag(name: "Tag\($0)") }
        try store.save(notes[0])
        try await store.flush()
        let unchanged = try await store.recordStatements {
            try store.save(notes[0])
            try await store.flush()
        }
        #expect(unchanged.count == 0, "\(unchanged)")

        notes[0].tags.insert(Tag(name: "Added"), at: 2_500)
        let log = try await store.recordStatements {
            try store.save(notes[0])
            try await store.flush()
        }
        // The tag's row and one row of the lookup table; the note's own row is unchanged.
        #expect(log.count == 2, "\(log)")
        #expect(log.statements.filter { $0.hasPrefix("INSERT OR FAIL INTO \"tagsNotesLookup\"") }.count == 1)
        let order = try await store.fetchRows("SELECT tagID FROM tagsNotesLookup WHERE noteID = 0 ORDER BY ix")
        #expect(order.map { $0.first } == notes[0].tags.map { .text($0.uniqueID) })
        try await store.close()
    }

    @Test func aPropertySetToTheValueItHasMarksNothing() async throws {
        let (store, notes) = try await openStore(notes: 5)
        notes[1].archived = false
        notes[1].text = "note 1"
        #expect(notes[1].changedProperties.isEmpty, "the observer compares the old value with the new")
        let unchanged = try await store.recordStatements {
            try store.save(notes[1])
            try await store.flush()
        }
        #expect(unchanged.count == 0, "\(unchanged)")

        // Marked without comparing, it costs its UPDATE, which leaves the row as it was.
        notes[1].changedProperties.insert("archived")
        let marked = try await store.recordStatements {
            try store.save(notes[1])
            try await store.flush()
        }
        #expect(marked.statements == [#"UPDATE "notes" SET "archived" = ? WHERE "uniqueID" = ?"#], "\(marked)")
        #expect(try await row(1, in: store) == [.text("note 1"), .integer(0)])
        try await store.close()
    }

    @Test func aNewInstanceForAKnownRowIsWrittenWhole() async throws {
        let (store, notes) = try await openStore(notes: 5)
        // The app makes another instance for row 2 (it never set a property, so nothing is
        // marked): the store must not take it for the instance it read.
        let replacement = TrackedNote(uniqueID: 2, text: "replaced")
        replacement.archived = true
        replacement.changedProperties = QSChangedProperties()
        try store.save(replacement)
        try await store.flush()
        #expect(try await row(2, in: store) == [.text("replaced"), .integer(1)])
        withExtendedLifetime(notes) {}
        try await store.close()
    }

    @Test func aMarkThatNamesNoColumnFailsTheSaveAndEveryMarkStays() async throws {
        let (store, notes) = try await openStore(notes: 5)
        notes[0].text = "first"
        notes[1].changedProperties.insert("subtitle")
        #expect(throws: QSDataError.unknownColumn(type: "Note", column: "subtitle")) { try store.save([notes[0], notes[1]]) }
        #expect(notes[0].changedProperties.propertyNames == ["text"], "given back: the save never ran")
        #expect(notes[1].changedProperties.contains("subtitle"))

        notes[2].tags = [Tag(name: "Work")]
        #expect(notes[2].changedProperties.propertyNames == ["tags"])
        try store.save([notes[0], notes[2]])
        try await store.flush()
        #expect(try await row(0, in: store) == [.text("first"), .integer(0)])
        #expect(try await store.fetchRows("SELECT tagID FROM tagsNotesLookup WHERE noteID = 2") == [[.text("work")]])
        try await store.close()
    }

    @Test func aSaveAfterOneThatRollsBackWritesTheWholeObjectAsItWasSaved() async throws {
        let (store, notes) = try await openStore(notes: 5)
        try await store.execute("""
            CREATE TEMP TRIGGER refuseText BEFORE UPDATE OF text ON notes WHEN NEW.text = 'refused'
            BEGIN SELECT RAISE(ABORT, 'text refused'); END
            """)
        // The first save (of the text) rolls back. The second was encoded with that text too,
        // but took only the mark of `archived`: it must still write the text, and be refused.
        notes[4].text = "refused"
        try store.save(notes[4])
        notes[4].archived = true
        try store.save(notes[4])
        let error = await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(error?.wasRolledBack == true)
        try await store.flush()
        #expect(try await row(4, in: store) == [.text("note 4"), .integer(0)], "neither save is in the database")
        #expect(notes[4].text == "note 4" && !notes[4].archived, "restored to what the database holds")
        try await store.execute("DROP TRIGGER refuseText")

        notes[4].archived = true
        try store.save(notes[4])
        try await store.flush()
        #expect(try await row(4, in: store) == [.text("note 4"), .integer(1)])
        try await store.close()
    }

    @Test func aBulkUpdateLeavesTheAppsMarksAsTheyWere() async throws {
        let (store, notes) = try await openStore(notes: 5)
        notes[1].text = "unsaved edit"
        try store.update(TrackedNote.self, ids: [1, 2], set: ["archived": true])
        #expect(notes[1].archived && notes[2].archived)
        #expect(notes[1].changedProperties.propertyNames == ["text"])
        #expect(notes[2].changedProperties.isEmpty)
        let log = try await store.recordStatements {
            try store.save([notes[1], notes[2]])
            try await store.flush()
        }
        #expect(log.statements == [#"UPDATE "notes" SET "text" = ? WHERE "uniqueID" = ?"#], "\(log)")
        #expect(try await row(1, in: store) == [.text("unsaved edit"), .integer(1)])
        #expect(try await row(2, in: store) == [.text("note 2"), .integer(1)])
        try await store.close()
    }

    @Test func aSaveEncodedBeforeAnUpdateWhereCommitsStillWritesWhatItHeld() async throws {
        let (store, notes) = try await openStore(notes: 5)
        // The update's instances are patched once it commits; the save after it in the batch
        // holds the text it had, unmarked, and is the later write: the row ends with that text.
        try store.performBatch {
            try store.update(TrackedNote.self, where: "uniqueID = 1", set: ["text": "bulk"])
            notes[1].archived = true
            try store.save(notes[1])
        }
        try await store.flush()
        #expect(try await row(1, in: store) == [.text("note 1"), .integer(1)])
        #expect(notes[1].text == "note 1", "saved after the update, the instance keeps what it held")

        // The next update where: alone patches the instance, which then saves nothing.
        try store.update(TrackedNote.self, where: "uniqueID = 1", set: ["text": "bulk again"])
        try await store.flush()
        #expect(notes[1].text == "bulk again" && notes[1].changedProperties.isEmpty)
        try store.save(notes[1])
        try await store.flush()
        #expect(try await row(1, in: store) == [.text("bulk again"), .integer(1)])
        try await store.close()
    }

    @Test func anotherWritersChangeKeepsTheAppsMarkedEditsAndTakesTheRest() async throws {
        let (store, notes) = try await openStore(notes: 5)
        notes[3].text = "mine"
        try await store.execute("UPDATE notes SET text = 'theirs', archived = 1 WHERE uniqueID = 3")
        try await store.flush()
        #expect(notes[3].text == "mine", "a marked column keeps the app's value")
        #expect(notes[3].archived, "every other column takes the row's")
        #expect(notes[3].changedProperties.propertyNames == ["text"])
        try store.save(notes[3])
        try await store.flush()
        #expect(try await row(3, in: store) == [.text("mine"), .integer(1)])
        try await store.close()
    }

    @Test func aFetchedInstanceAfterTheLastOneDiedSavesItsEdits() async throws {
        let (store, notes) = try await openStore(notes: 3)
        let ids = notes.map(\.uniqueID)
        _ = consume notes
        _ = try store.cachedObjectCount(of: TrackedNote.self)
        let again = try await store.fetchAll(TrackedNote.self, orderBy: "uniqueID")
        #expect(again.map(\.uniqueID) == ids)
        again[0].text = "edited again"
        let log = try await store.recordStatements {
            try store.save(again)
            try await store.flush()
        }
        #expect(log.statements == [#"UPDATE "notes" SET "text" = ? WHERE "uniqueID" = ?"#], "\(log)")
        #expect(try await row(0, in: store) == [.text("edited again"), .integer(0)])
        try await store.close()
    }

    /// Uniqued (the store knows each row by an epoch alone) and permanently cached.
    @Test(arguments: [false, true])
    func aTypeWithoutRelationshipsFollowsTheSameRules(cachedPermanently: Bool) async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(tagsCached: cachedPermanently),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL),
            types: [Note.self, TrackedTag.self, Attachment.self])
        try store.save((0..<4).map { TrackedTag(uniqueID: "t\($0)", name: "Tag \($0)") })
        try await store.flush()
        func name(_ id: String) async throws -> [[SQLValue]] {
            try await store.fetchRows("SELECT name FROM tags WHERE uniqueID = ?", [.text(id)])
        }
        func statements(_ body: () throws -> Void) async throws -> QSStatementLog {
            try await store.recordStatements {
                try body()
                try await store.flush()
            }
        }

        var tags = try await store.fetchAll(TrackedTag.self, orderBy: "uniqueID")
        #expect(try await statements { try store.save(tags) }.count == 0)
        tags[1].name = "Renamed"
        #expect(try await statements { try store.save(tags) }.statements == [#"UPDATE "tags" SET "name" = ? WHERE "uniqueID" = ?"#])

        // Let go and fetched again: the new instances are known as read, unchanged.
        tags = []
        _ = try store.cachedObjectCount(of: TrackedTag.self)
        tags = try await store.fetchAll(TrackedTag.self, orderBy: "uniqueID")
        #expect(tags[1].name == "Renamed")
        #expect(try await statements { try store.save(tags) }.count == 0)

        // Another instance for a known row, nothing marked: written whole.
        let replacement = TrackedTag(uniqueID: "t2", name: "Replaced")
        try store.save(replacement)
        try await store.flush()
        #expect(try await name("t2") == [[.text("Replaced")]])

        // An update where:, then a save encoded before it commits: the save's values win.
        try store.performBatch {
            try store.update(TrackedTag.self, where: "uniqueID = 't3'", set: ["name": "Bulk"])
            try store.save(tags[3])
        }
        try await store.flush()
        #expect(try await name("t3") == [[.text("Tag 3")]])

        // A save that rolls back: the next save writes the row whole.
        try await store.execute("""
            CREATE TEMP TRIGGER refuseName BEFORE UPDATE OF name ON tags WHEN NEW.name = 'refused'
            BEGIN SELECT RAISE(ABORT, 'name refused'); END
            """)
        tags[0].name = "refused"
        try store.save(tags[0])
        await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(tags[0].name == "Tag 0", "restored to what the database holds")
        try await store.execute("DROP TRIGGER refuseName")
        // Restored, with its marks gone with the failed save: nothing to write.
        #expect(try await statements { try store.save(tags[0]) }.count == 0)
        #expect(try await name("t0") == [[.text("Tag 0")]])
        // Its snapshot went with the rollback: an insert that finds the row, then a guarded update.
        tags[0].name = "Renamed after the failure"
        #expect(try await statements { try store.save(tags[0]) }.count == 2)
        #expect(try await name("t0") == [[.text("Renamed after the failure")]])
        try await store.close()
    }
}
