import Foundation
import QSData
import Testing

@MainActor
@Suite struct QueueAndErrorTests {
    @Test func aFetchSeesEveryWriteEnqueuedBeforeIt() async throws {
        let store = try await Fixtures.openStore()
        for index in 0..<200 {
            try store.save(Note(uniqueID: Int64(20_000 + index), text: "n\(index)"))
        }
        try store.delete(Note.self, ids: [20_000, 20_001])
        try store.update(Note.self, ids: [20_002], set: ["text": "changed"])
        // No flush: the fetch itself is ordered after the writes on the queue.
        let rows = try await store.fetchRows("SELECT count(*), (SELECT text FROM notes WHERE uniqueID = 20002) FROM notes")
        #expect(rows == [[.integer(198), .text("changed")]])
    }

    @Test func aFailedWriteIsRolledBackAndReported() async throws {
        let store = try await Fixtures.openStore()
        try store.save(Tag(name: "Unique"))
        try await store.flush()

        var reported: [QSWriteError] = []
        let observation = store.observeWriteErrors { reported.append($0) }
        // tags.name is UNIQUE: a second tag with the same name but another uniqueID must fail,
        // and the note saved in the same call must not be written either.
        let clash = Tag(name: "Unique")
        let impostor = Tag(name: "Other")
        impostor.name = "Unique"
        try store.save(Note(uniqueID: 30_000, text: "in the failed batch", tags: [clash, impostor]))

        let error = await #expect(throws: QSWriteError.self) { try await store.flush() }
        let sqliteError = try #require(error?.underlying as? SQLiteError)
        #expect(sqliteError.code == 19)  // SQLITE_CONSTRAINT
        #expect(sqliteError.message.contains("tags.name"))
        #expect(sqliteError.sql?.hasPrefix("UPDATE \"tags\"") == true || sqliteError.sql?.hasPrefix("INSERT INTO \"tags\"") == true)
        #expect(error?.operation == "save 1 Note")
        #expect(reported.count == 1)
        #expect(try await store.count(Note.self) == 0)
        #expect(try await store.count(Tag.self) == 1)
        try await store.flush()  // reported once only
        observation.cancel()
    }

    /// The failed save's instances are put back to what the database holds, read right after the
    /// rollback; an instance the app saved again before the failure reached the main actor keeps
    /// what that later save holds, which the database holds too once it commits.
    @Test func aRestoreLeavesAnInstanceSavedAgainSinceAsThatSaveLeftIt() async throws {
        let store = try await Fixtures.openStore()
        let note = Note(uniqueID: 32_000, text: "first")
        try store.save(note)
        try await store.flush()
        try await store.execute("""
            CREATE TEMP TRIGGER refuseText BEFORE UPDATE OF text ON notes WHEN NEW.text = 'refused'
            BEGIN SELECT RAISE(ABORT, 'text refused'); END
            """)
        note.text = "refused"
        try store.save(note)
        note.text = "accepted"
        try store.save(note)
        let error = await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(error?.operation == "save 1 Note")
        #expect(note.text == "accepted")
        #expect(try await store.fetchRows("SELECT text FROM notes WHERE uniqueID = 32000") == [[.text("accepted")]])
        try await store.close()
    }

    /// An update `where:` patches its instances once it commits; a bulk update by IDs made before
    /// that patches them at once. The earlier update's patch, arriving after, leaves the column the
    /// later one set and sets its own others.
    @Test func anUpdateWhereLeavesWhatALaterUpdateByIDsSetInMemory() async throws {
        let store = try await Fixtures.openStore()
        let note = Note(uniqueID: 33_000, text: "first")
        try store.save(note)
        try await store.flush()
        try store.update(Note.self, where: "uniqueID = 33000", set: ["text": "by condition", "archived": true])
        try store.update(Note.self, ids: [33_000], set: ["text": "by ID"])
        #expect(note.text == "by ID" && !note.archived)
        try await store.flush()
        #expect(note.text == "by ID" && note.archived)
        #expect(try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = 33000") == [[.text("by ID"), .integer(1)]])

        // The same in one batch, whose update `where:` is patched in once the batch commits.
        try store.performBatch {
            try store.update(Note.self, where: "uniqueID = 33000", set: ["text": "by condition again"])
            try store.update(Note.self, ids: [33_000], set: ["text": "by ID again"])
        }
        try await store.flush()
        #expect(note.text == "by ID again")
        #expect(try await store.fetchRows("SELECT text FROM notes WHERE uniqueID = 33000") == [[.text("by ID again")]])
        try await store.close()
    }

    @Test func aCachedInstanceThatRefusesABulkUpdateIsReportedAndForgotten() async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL), types: [PatchableNote.self, Tag.self, Attachment.self])
        let note = PatchableNote(uniqueID: 31_000, text: "stays unarchived in memory")
        note.refuseArchiving()
        try store.save(note)
        try await store.flush()

        var reported: [QSWriteError] = []
        let observation = store.observeWriteErrors { reported.append($0) }
        let write = try store.update(PatchableNote.self, where: "uniqueID = ?", arguments: [31_000], set: ["archived": true])
        try await write.committed()  // the update itself committed; patching the instance failed after

        let error = await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(error?.operation == "update Note where uniqueID = ?")
        #expect(error?.wasRolledBack == false)
        #expect(error?.underlying is PatchableNote.RefusesToBeArchived)
        #expect(error?.description.hasPrefix("update Note where uniqueID = ? committed, but cached instances could not take") == true)
        #expect(reported.count == 1)
        #expect(try await store.count(PatchableNote.self, where: "archived = 1") == 1)
        // The refusing instance is no longer the store's: a fetch reads the row afresh.
        #expect(try store.cachedObject(of: PatchableNote.self, id: 31_000) == nil)
        let fetched = try #require(try await store.fetch(PatchableNote.self, id: 31_000))
        #expect(fetched !== note)
        #expect(fetched.archived)
        #expect(!note.archived)
        try await store.flush()  // reported once only
        observation.cancel()
    }

    /// The UPDATE of a bulk update by IDs runs while the instances are patched; when one refuses
    /// the new values, the call throws, the UPDATE rolls back, the instances patched before it
    /// get their stored values back, and no write error is reported besides the thrown one.
    @Test func aBulkUpdateByIDsThatAnInstanceRefusesWritesNothing() async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL), types: [PatchableNote.self, Tag.self, Attachment.self])
        let willing = PatchableNote(uniqueID: 32_000, text: "willing")
        let stubborn = PatchableNote(uniqueID: 32_001, text: "stubborn")
        stubborn.refuseArchiving()
        try store.save([willing, stubborn])
        try await store.flush()

        var reported: [QSWriteError] = []
        let observation = store.observeWriteErrors { reported.append($0) }
        #expect(throws: PatchableNote.RefusesToBeArchived.self) {
            try store.update(PatchableNote.self, ids: [32_000, 32_001], set: ["archived": true])
        }
        #expect(willing.archived, "patched before the refusal")
        try await store.flush()  // the abandoned write is not reported again

        #expect(reported.isEmpty)
        #expect(try await store.count(PatchableNote.self, where: "archived = 1") == 0)
        #expect(!willing.archived, "restored to what the database holds")
        #expect(!stubborn.archived)
        // Afterwards the same update of the willing note alone goes through.
        try store.update(PatchableNote.self, ids: [32_000], set: ["archived": true])
        try await store.flush()
        #expect(willing.archived)
        #expect(try await store.count(PatchableNote.self, where: "archived = 1") == 1)
        observation.cancel()
    }

    @Test func changesArriveAsAnAsyncSequenceWithTheirSource() async throws {
        let store = try await Fixtures.openStore()
        let stream = store.changes
        try store.save(Note(uniqueID: 40_000, text: "from sync"), source: .sync)
        try store.delete(Note.self, ids: [40_000])
        try await store.flush()
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first?.source == .sync)
        #expect(first?.insertedIDs(of: Note.self) == [40_000])
        #expect(first?.insertedIDs(of: TimelineNote.self) == [40_000])
        #expect(second?.source == .app)
        #expect(second?.deletedIDs(of: Note.self) == [40_000])
    }

    @Test func rawSQLRunsOnTheSameQueue() async throws {
        let store = try await Fixtures.openStore()
        try store.save(Note(uniqueID: 50_000, text: "gone"))
        try store.write { db in
            try db.execute("INSERT INTO deletedNotes (uniqueID) VALUES (?)", [50_000])
        }
        let count = try await store.read { db in try db.fetchValue("SELECT count(*) FROM deletedNotes") }
        #expect(count == .integer(1))
        let missing = await #expect(throws: SQLiteError.self) {
            try await store.execute("INSERT INTO nowhere VALUES (1)")
        }
        #expect(missing?.sql == "INSERT INTO nowhere VALUES (1)")
        #expect(missing?.message == "no such table: nowhere")
    }

    @Test func aClosedStoreRefusesWork() async throws {
        let store = try await Fixtures.openStore()
        try await store.close()
        #expect(throws: QSDataError.storeClosed) { try store.save(Tag(name: "late")) }
        await #expect(throws: QSDataError.storeClosed) { _ = try await store.fetchAll(Note.self) }
    }

    @Test func largeStringIDListsWork() async throws {
        let store = try await Fixtures.openStore()
        let attachments = (0..<40_000).map { Attachment(uniqueID: "id \"\($0)\" \\ ünï") }
        try store.save(attachments)
        let fetched = try await store.fetch(Attachment.self, ids: attachments.map(\.uniqueID))
        #expect(fetched.count == 40_000)
        #expect(fetched.last?.uniqueID == "id \"39999\" \\ ünï")
        try store.delete(attachments)
        #expect(try await store.count(Attachment.self) == 0)
    }

    /// The IDs a bulk write names reach SQLite as one JSON array: every integer and every
    /// character a string ID can hold must come back as it was.
    @Test func idListsCarryEveryIntegerAndEveryCharacter() async throws {
        let store = try await Fixtures.openStore()
        let integers: [Int64] = [.min, -1_000_000_007, -1, 0, 9, 10, 1_234_567_890, .max]
        try store.save(integers.map { Note(uniqueID: $0, text: "before") })
        try store.update(Note.self, ids: integers, set: ["text": "after"])
        let texts = try await store.fetchRows("SELECT uniqueID, text FROM notes ORDER BY uniqueID")
        #expect(texts == integers.map { [.integer($0), .text("after")] })
        try store.delete(Note.self, ids: integers.filter { $0 < 0 })
        #expect(try await store.fetchIDs(Note.self, orderBy: "uniqueID") == integers.filter { $0 >= 0 })

        let strings = ["plain", "a \"quote\"", "back\\slash", "line\nfeed\r\ttab", "bell\u{07}and\u{1F}", "ünï 🎉", ""]
        try store.save(strings.map { Attachment(uniqueID: $0) })
        let fetched = try await store.fetch(Attachment.self, ids: strings)
        #expect(fetched.map(\.uniqueID) == strings)
        try store.delete(Attachment.self, ids: strings.dropLast())
        #expect(try await store.fetchIDs(Attachment.self) == [""])
    }
}

@MainActor
@Suite struct AlongsideAndTriggerTests {
    @Test func appSQLRunsInTheDeleteTransactionWithTheDeletedIDs() async throws {
        let store = try await Fixtures.openStore()
        try store.save((0..<5).map { Note(uniqueID: Int64(70_000 + $0), text: "n") })
        try store.delete(Note.self, ids: [70_000, 70_001, 99_999]) { db, deleted in
            for id in deleted { try db.execute("INSERT INTO deletedNotes (uniqueID) VALUES (?)", [.integer(id)]) }
        }
        let recorded = try await store.fetchRows("SELECT uniqueID FROM deletedNotes ORDER BY uniqueID")
        #expect(recorded == [[.integer(70_000)], [.integer(70_001)]])

        // A failure in the app's SQL rolls back the store's delete too.
        try store.delete(Note.self, ids: [70_002]) { db, _ in try db.execute("INSERT INTO nowhere VALUES (1)") }
        await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(try await store.count(Note.self) == 3)
    }

    @Test func aStatementThatFiresATriggerCountsOnce() async throws {
        let store = try await Fixtures.openStore()
        try await store.execute("""
            CREATE TRIGGER recordDeletedNote AFTER DELETE ON notes
            BEGIN INSERT INTO deletedNotes (uniqueID) VALUES (old.uniqueID); END
            """)
        try store.save((0..<100).map { Note(uniqueID: Int64(71_000 + $0), text: "n") })
        try await store.flush()
        let log = try await store.recordStatements { try store.delete(Note.self, ids: (0..<100).map { Int64(71_000 + $0) }) }
        #expect(log.count == 3, "\(log)")
        #expect(try await store.fetchRows("SELECT count(*) FROM deletedNotes") == [[.integer(100)]])
    }

    @Test func aMissingFolderIsNamed() async throws {
        let url = URL(fileURLWithPath: "/nonexistent-folder-\(UUID().uuidString)/db.sqlite")
        let error = await #expect(throws: QSDataError.self) { _ = try await Fixtures.openStore(url: url) }
        #expect(error == .cannotOpenDatabase(path: url.path, reason: "the folder \(url.deletingLastPathComponent().path) does not exist"))
    }
}

@Suite struct SQLiteConnectionTests {
    @Test func fetchValueIsNilWithoutARowAndNullForANullColumn() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x)")
        #expect(try connection.fetchValue("SELECT x FROM t") == nil)
        try connection.execute("INSERT INTO t VALUES (NULL)")
        #expect(try connection.fetchValue("SELECT x FROM t") == .some(.null))
    }

    @Test func nestedTransactionsRollBackOnlyTheInnerPart() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x)")
        try connection.transaction {
            try connection.execute("INSERT INTO t VALUES (1)")
            struct Inner: Error {}
            do {
                try connection.transaction {
                    try connection.execute("INSERT INTO t VALUES (2)")
                    throw Inner()
                }
            } catch is Inner {}
        }
        #expect(try connection.fetchRows("SELECT x FROM t") == [[.integer(1)]])
    }

    @Test func argumentsMustMatchTheParameters() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try connection.execute("SELECT ?, ?", [1]) }
        #expect(error?.message == "the statement has 2 parameters but 1 arguments were given")
        #expect(error?.sql == "SELECT ?, ?")
    }

    @Test func everyStorageClassRoundTrips() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let values: [SQLValue] = [.null, 42, 2.5, "", "text ünï", .blob(Data()), .blob(Data([0, 1, 255]))]
        for value in values {
            #expect(try connection.fetchValue("SELECT ?", [value]) == value)
        }
    }
}
