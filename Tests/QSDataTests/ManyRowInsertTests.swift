import Foundation
import QSData
import Testing

/// A note kept as a value: the store holds no instance of it, so it checks the database on
/// every save, and one save can list the same note twice with different tags.
private struct NoteValue: QSDataObject {
    static let modelName = "Note"
    let uniqueID: Int64
    var text = "value"
    var tags: [Tag] = []

    init(uniqueID: Int64, text: String = "value", tags: [Tag] = []) {
        self.uniqueID = uniqueID
        self.text = text
        self.tags = tags
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        text = try row["text"]
        _ = try row["archived"] as Bool
        _ = try row["sortDate"] as Date
        _ = try row["links"] as [String]?
        tags = try row.related("tags")
        _ = try row.related("attachments") as [Attachment]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["text"] = text
        row["archived"] = false
        row["sortDate"] = Fixtures.referenceDate
        row["links"] = nil as [String]?
        row.setRelated("tags", tags)
        row.setRelated("attachments", [Attachment]())
    }
}

/// A save inserts many rows a statement: the rows it doesn't know exist, tried before the rest
/// of their type's rows are written, and the lookup rows it adds, once the type's rows are.
@MainActor
@Suite struct ManyRowInsertTests {
    private func openValueStore(schema: String = Fixtures.schemaSQL) async throws -> QSStore {
        try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
            schema: QSSchema(creationSQL: schema), types: [NoteValue.self, Tag.self, Attachment.self])
    }

    /// The statements that inserted many rows into `table`.
    private func inserts(into table: String, _ log: QSStatementLog) -> Int {
        log.statements.filter { $0.hasPrefix("INSERT OR FAIL INTO \"\(table)\"") }.count
    }

    private func updates(of table: String, _ log: QSStatementLog) -> Int {
        log.statements.filter { $0.hasPrefix("UPDATE \"\(table)\"") }.count
    }

    /// Saves `values` and waits for the commit; returns the statements it ran and its change.
    private func saveRecording(_ values: [NoteValue], in store: QSStore) async throws -> (log: QSStatementLog, change: QSChange) {
        var write: QSWrite?
        let log = try await store.recordStatements {
            write = try store.save(values)
            try await write?.committed()
        }
        return (log, try #require(write?.changes.first))
    }

    private func existenceQueries(of table: String, _ log: QSStatementLog) -> Int {
        log.statements.filter { $0.hasPrefix("SELECT \"uniqueID\" FROM \"\(table)\" WHERE") }.count
    }

    private func tagRows(ofNote id: Int64, _ store: QSStore) async throws -> [SQLValue] {
        try await store.fetchRows("SELECT tagID FROM tagsNotesLookup WHERE noteID = ? ORDER BY ix", [.integer(id)]).map { $0[0] }
    }

    @Test func manyParentsInsertTheirLookupRowsAHundredAndTwentyEightAStatement() async throws {
        let store = try await Fixtures.openStore()
        let tags = (0..<7).map { Tag(name: "tag \($0)") }
        // 300 notes of two tags: 600 lookup rows.
        let notes = (0..<300).map { Note(uniqueID: Int64($0), text: "n\($0)", tags: [tags[$0 % 7], tags[($0 + 3) % 7]]) }
        let log = try await store.recordStatements { try store.save(notes) }
        // Statements of 128 rows, then of the powers of two the rest adds up to: 600 rows in
        // 4 × 128 + 64 + 16 + 8, 300 notes in 2 × 128 + 32 + 8 + 4, 7 tags in 4 + 2 + 1.
        #expect(inserts(into: "tagsNotesLookup", log) == 7, "\(log)")
        #expect(inserts(into: "notes", log) == 5, "\(log)")
        #expect(inserts(into: "tags", log) == 3, "\(log)")
        // No query looks for which of them exist: the inserts skip those that do.
        #expect(existenceQueries(of: "notes", log) == 0)
        #expect(existenceQueries(of: "tags", log) == 0)
        #expect(log.count == 7 + 5 + 3, "\(log)")

        let rows = try await store.fetchRows("SELECT noteID, tagID, ix FROM tagsNotesLookup ORDER BY noteID, ix")
        let expected: [[SQLValue]] = notes.flatMap { note in
            note.tags.enumerated().map { offset, tag in [.integer(note.uniqueID), .text(tag.uniqueID), .integer(Int64(offset) << 20)] }
        }
        #expect(rows == expected)
    }

    @Test func aLargeSaveOfNewNotesRunsTwelveStatementsAHundredNotes() async throws {
        let store = try await Fixtures.openStore()
        let tags = (0..<50).map { Tag(name: "tag \($0)") }
        let notes = (0..<2_000).map { i in
            Note(uniqueID: Int64(i), text: "n\(i)", tags: [tags[i % 50], tags[(i + 7) % 50]], attachments: [Attachment(uniqueID: "a\(i)")])
        }
        let log = try await store.recordStatements {
            try store.save(notes)
            try await store.flush()
        }
        // In chunks of 100 notes, each chunk's 100 notes, 100 attachments, 200 tag rows and 100
        // attachment rows in three statements each (64 + 32 + 4, 128 + 64 + 8); the 50 tags once,
        // in the first (32 + 16 + 2). Nothing asks which rows exist.
        #expect(log.count == 20 * 12 + 3, "\(log)")
        #expect(log.statements.allSatisfy { $0.hasPrefix("INSERT OR FAIL INTO") }, "\(log)")
        #expect(try await store.count(Note.self) == 2_000)
        #expect(try await store.fetchRows("SELECT count(*) FROM tagsNotesLookup") == [[.integer(4_000)]])
    }

    @Test func childrenAddedToManyParentsGoInTogetherAfterTheirRows() async throws {
        let store = try await Fixtures.openStore()
        let first = Tag(name: "first")
        let notes = (0..<200).map { Note(uniqueID: Int64($0), text: "n\($0)", tags: [first]) }
        try store.save(notes)
        let added = Tag(name: "added")
        for note in notes { note.tags.append(added) }
        let log = try await store.recordStatements { try store.save(notes) }
        // The new tag's row, then 200 lookup rows in 128 + 64 + 8.
        #expect(log.count == 4, "\(log)")
        #expect(inserts(into: "tagsNotesLookup", log) == 3)
        for id: Int64 in [0, 127, 128, 199] {
            #expect(try await tagRows(ofNote: id, store) == [.text(first.uniqueID), .text(added.uniqueID)])
        }
    }

    @Test func rowsFoundToExistAreLeftToTheirUpdate() async throws {
        let store = try await openValueStore()
        try store.save([NoteValue(uniqueID: 2, text: "two"), NoteValue(uniqueID: 4, text: "four")])
        let values = [
            NoteValue(uniqueID: 1, text: "one"), NoteValue(uniqueID: 2, text: "two, edited"), NoteValue(uniqueID: 3, text: "three"),
            NoteValue(uniqueID: 4, text: "four"), NoteValue(uniqueID: 5, text: "five"),
        ]
        let (log, change) = try await saveRecording(values, in: store)
        // The five are tried together (4 + 1); the inserts skip the two that exist and say which
        // three they inserted, and each that existed gets its update.
        #expect(existenceQueries(of: "notes", log) == 0, "\(log)")
        #expect(inserts(into: "notes", log) == 2, "\(log)")
        #expect(updates(of: "notes", log) == 2, "\(log)")
        #expect(change.insertedIDs(of: NoteValue.self) == [1, 3, 5])
        #expect(change.updatedIDs(of: NoteValue.self) == [2])
        let texts = try await store.fetchRows("SELECT text FROM notes ORDER BY uniqueID").map(\.[0])
        #expect(texts == ["one", "two, edited", "three", "four", "five"])
        try await store.close()
    }

    @Test func rowsThatAllExistedGoStraightToTheirUpdate() async throws {
        let store = try await openValueStore()
        let values = (1...5).map { NoteValue(uniqueID: $0, text: "note \($0)") }
        try store.save(values)
        var edited = values
        edited[3].text = "note 4, edited"
        let (log, change) = try await saveRecording(edited, in: store)
        // The inserts (4 + 1) skip all five, then each row's guarded update, one writing.
        #expect(existenceQueries(of: "notes", log) == 0, "\(log)")
        #expect(inserts(into: "notes", log) == 2, "\(log)")
        #expect(updates(of: "notes", log) == 5, "\(log)")
        // A value is not held, so each note's two relationships are read to compare: 2 + 5 × 3.
        #expect(log.count == 17, "\(log)")
        #expect(change.insertedIDs(of: NoteValue.self).isEmpty)
        #expect(change.updatedIDs(of: NoteValue.self) == [4])
        #expect(try await store.fetchRows("SELECT text FROM notes WHERE uniqueID = 4") == [["note 4, edited"]])
        try await store.close()
    }

    @Test func rowsOfTextIDsFoundToExistAreLeftToTheirUpdate() async throws {
        let store = try await Fixtures.openStore()
        // Rows the store has never seen, written by SQL of the app's own.
        try await store.execute("INSERT INTO tags (uniqueID, name) VALUES ('b', 'Bee'), ('d', 'Dee')")
        let tags = ["A", "B", "C", "D", "E"].map { Tag(name: $0) }
        var write: QSWrite?
        let log = try await store.recordStatements {
            write = try store.save(tags)
            try await write?.committed()
        }
        let change = try #require(write?.changes.first)
        // Tag's uniqueID is text, not the rowid: the inserts (4 + 1) say which rows they inserted.
        #expect(inserts(into: "tags", log) == 2, "\(log)")
        #expect(log.statements.filter { $0.hasSuffix("RETURNING \"uniqueID\"") }.count == 2, "\(log)")
        #expect(updates(of: "tags", log) == 2, "\(log)")
        #expect(change.insertedIDs(of: Tag.self) == ["a", "c", "e"])
        #expect(change.updatedIDs(of: Tag.self) == ["b", "d"])
        let names = try await store.fetchRows("SELECT name FROM tags ORDER BY uniqueID").map(\.[0])
        #expect(names == ["A", "B", "C", "D", "E"])
        try await store.close()
    }

    @Test func rowsOfAnIntegerKeyThatIsNotTheRowIDAreReturnedByTheInserts() async throws {
        // INTEGER PRIMARY KEY DESC is, by a quirk SQLite keeps, not the rowid: the update hook
        // would name rowids, not uniqueIDs, so the inserts return the IDs instead.
        let schema = Fixtures.schemaSQL.replacingOccurrences(
            of: "CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY,", with: "CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY DESC,")
        #expect(schema != Fixtures.schemaSQL)
        let store = try await openValueStore(schema: schema)
        try store.save(NoteValue(uniqueID: 20, text: "twenty"))
        try await store.flush()
        let values = [10, 20, 30].map { NoteValue(uniqueID: $0, text: "note \($0)") }
        let (log, change) = try await saveRecording(values, in: store)
        #expect(log.statements.filter { $0.hasPrefix("INSERT OR FAIL") && $0.hasSuffix("RETURNING \"uniqueID\"") }.count == 2, "\(log)")
        #expect(change.insertedIDs(of: NoteValue.self) == [10, 30])
        #expect(change.updatedIDs(of: NoteValue.self) == [20])
        let texts = try await store.fetchRows("SELECT text FROM notes ORDER BY uniqueID").map(\.[0])
        #expect(texts == ["note 10", "note 20", "note 30"])
        try await store.close()
    }

    @Test func rowsATriggerAddsToTheSameTableAreNotTakenForTheSavedOnes() async throws {
        let store = try await openValueStore()
        try store.save(NoteValue(uniqueID: 2, text: "two"))
        try await store.flush()
        // Each note inserted brings a copy of itself 100 later: SQLite's update hook names both.
        try await store.execute("""
            CREATE TEMP TRIGGER copyNote AFTER INSERT ON notes WHEN NEW.uniqueID < 100
            BEGIN INSERT INTO notes (uniqueID, text, sortDate) VALUES (NEW.uniqueID + 100, 'copy', NEW.sortDate); END
            """)
        let values = (1...3).map { NoteValue(uniqueID: $0, text: "note \($0)") }
        let (log, change) = try await saveRecording(values, in: store)
        #expect(log.statements.allSatisfy { !$0.contains("RETURNING") }, "\(log)")
        #expect(change.insertedIDs(of: NoteValue.self) == [1, 3])
        #expect(change.updatedIDs(of: NoteValue.self) == [2])
        let ids = try await store.fetchRows("SELECT uniqueID FROM notes ORDER BY uniqueID").map(\.[0])
        #expect(ids == [1, 2, 3, 101, 103])
        try await store.close()
    }

    @Test func aParentListedTwiceWithOtherChildrenKeepsTheLastList() async throws {
        let store = try await openValueStore()
        let (a, b, c) = (Tag(name: "a"), Tag(name: "b"), Tag(name: "c"))
        // The second listing compares with what the first wrote: its rows must be in by then.
        try store.save([NoteValue(uniqueID: 1, tags: [a, b]), NoteValue(uniqueID: 2, tags: [a]), NoteValue(uniqueID: 1, tags: [c, a])])
        try await store.flush()
        #expect(try await tagRows(ofNote: 1, store) == [.text(c.uniqueID), .text(a.uniqueID)])
        #expect(try await tagRows(ofNote: 2, store) == [.text(a.uniqueID)])
        try await store.close()
    }

    @Test func aLookupRowTheDatabaseRefusesRollsBackTheWholeSave() async throws {
        let store = try await Fixtures.openStore()
        let tag = Tag(name: "taken")
        try store.save(tag)
        // A row the store doesn't know of, for a note it has never seen.
        try await store.execute("INSERT INTO tagsNotesLookup (tagID, noteID, ix) VALUES (?, 250, 0)", [.text(tag.uniqueID)])
        let notes = (0..<300).map { Note(uniqueID: Int64($0), text: "n\($0)", tags: [tag]) }
        try store.save(notes)
        let error = await #expect(throws: QSWriteError.self) { try await store.flush() }
        let message = error.map { String(describing: $0.underlying) } ?? ""
        #expect(message.contains("UNIQUE"), "\(message)")
        #expect(try await store.count(Note.self) == 0)
        #expect(try await store.fetchRows("SELECT noteID FROM tagsNotesLookup") == [[.integer(250)]])

        // Once the stray row is gone the same save goes through whole.
        try await store.execute("DELETE FROM tagsNotesLookup")
        try store.save(notes)
        try await store.flush()
        #expect(try await store.count(Note.self) == 300)
        #expect(try await store.fetchRows("SELECT count(*) FROM tagsNotesLookup") == [[.integer(300)]])
    }
}
