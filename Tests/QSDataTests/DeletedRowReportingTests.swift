import Foundation
import QSData
import Testing

/// How a delete learns which rows it deleted, so that observers hear exactly those: from SQLite's
/// update hook where the uniqueID is the table's rowid, from the DELETE's returned rows otherwise.
@MainActor
@Suite struct DeletedRowReportingTests {
    private func openStore(schema: String = Fixtures.schemaSQL) async throws -> QSStore {
        try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
            schema: QSSchema(creationSQL: schema), types: Fixtures.allTypes)
    }

    private func deleteStatements(_ log: QSStatementLog, from table: String) -> [String] {
        log.statements.filter { $0.hasPrefix("DELETE FROM \"\(table)\"") }
    }

    @Test func rowsKeyedByRowIDAreNamedWithoutReturningThem() async throws {
        let store = try await openStore()
        try store.save((1...4).map { Note(uniqueID: Int64($0), text: "n") })
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        let log = try await store.recordStatements { try store.delete(Note.self, ids: [2, 4, 9]) }
        let deletes = deleteStatements(log, from: "notes")
        #expect(deletes.count == 1, "\(log)")
        #expect(deletes.allSatisfy { !$0.contains("RETURNING") }, "\(log)")
        #expect(change?.deletedIDs(of: Note.self).sorted() == [2, 4])
        #expect(try await store.fetchIDs(Note.self) == [1, 3])
        observation.cancel()
    }

    @Test func aDeleteByConditionNamesTheRowsKeyedByRowIDItDeleted() async throws {
        let store = try await openStore()
        try store.save((1...4).map { Note(uniqueID: Int64($0), text: $0 % 2 == 0 ? "even" : "odd") })
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        try store.delete(Note.self, where: "text = ?", arguments: ["even"])
        try await store.flush()
        #expect(change?.deletedIDs(of: Note.self).sorted() == [2, 4])
        observation.cancel()
    }

    @Test func rowsKeyedByTextAreReturnedByTheDelete() async throws {
        let store = try await openStore()
        try store.save([Attachment(uniqueID: "a"), Attachment(uniqueID: "b")])
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        let log = try await store.recordStatements { try store.delete(Attachment.self, ids: ["b", "z"]) }
        let deletes = deleteStatements(log, from: "attachments")
        #expect(deletes.count == 1 && deletes[0].contains("RETURNING"), "\(log)")
        #expect(change?.deletedIDs(of: Attachment.self) == ["b"])
        observation.cancel()
    }

    @Test func anIntegerKeyThatIsNotTheRowIDIsReturnedByTheDelete() async throws {
        // INTEGER PRIMARY KEY DESC is, by a quirk SQLite keeps, not the rowid.
        let schema = Fixtures.schemaSQL.replacingOccurrences(
            of: "CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY,", with: "CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY DESC,")
        #expect(schema != Fixtures.schemaSQL)
        let store = try await openStore(schema: schema)
        try store.save((1...3).map { Note(uniqueID: Int64($0), text: "n") })
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        let log = try await store.recordStatements { try store.delete(Note.self, ids: [1, 3, 7]) }
        let deletes = deleteStatements(log, from: "notes")
        #expect(deletes.count == 1 && deletes[0].contains("RETURNING"), "\(log)")
        #expect(change?.deletedIDs(of: Note.self).sorted() == [1, 3])
        observation.cancel()
    }

    @Test func rowsATriggerDeletesFromTheSameTableLoseTheirLookupRowsToo() async throws {
        // Deleting note 1 takes note 3 with it; ID 99 has no row, so as many rows go as IDs were given.
        let schema = Fixtures.schemaSQL + """

            CREATE TRIGGER noteOneTakesNoteThree AFTER DELETE ON notes WHEN old.uniqueID = 1 BEGIN
                DELETE FROM notes WHERE uniqueID = 3;
            END;
            """
        let store = try await openStore(schema: schema)
        let tag = Tag(name: "shared")
        try store.save((1...4).map { Note(uniqueID: Int64($0), text: "n", tags: [tag]) })
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        try store.delete(Note.self, ids: [1, 2, 99])
        try await store.flush()
        #expect(change?.deletedIDs(of: Note.self).sorted() == [1, 2, 3])
        #expect(try await store.fetchIDs(Note.self) == [4])
        #expect(try await store.fetchRows("SELECT noteID FROM tagsNotesLookup") == [[.integer(4)]])
        observation.cancel()
    }

    @Test func rowsATriggerDeletesFromAnotherTableAreNotReported() async throws {
        let schema = Fixtures.schemaSQL + """

            CREATE TRIGGER notesEmptyTheirTombstones AFTER DELETE ON notes BEGIN
                DELETE FROM deletedNotes WHERE uniqueID > 0;
            END;
            """
        let store = try await openStore(schema: schema)
        try store.save((1...2).map { Note(uniqueID: Int64($0), text: "n") })
        try await store.execute("INSERT INTO deletedNotes (uniqueID) VALUES (5), (6)")
        var change: QSChange?
        let observation = store.observeChanges { change = $0 }
        try store.delete(Note.self, ids: [1])
        try await store.flush()
        #expect(change?.deletedIDs(of: Note.self) == [1])
        #expect(try await store.fetchRows("SELECT count(*) FROM deletedNotes") == [[.integer(0)]])
        observation.cancel()
    }
}
