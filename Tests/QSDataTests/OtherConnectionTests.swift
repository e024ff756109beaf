import Foundation
import QSData
import QSDataTodoModel
import Testing

/// Other connections to the file in this process, a plain `sqlite3` session, and the app's own
/// SQL through the store: every one of them reaches the store through the change log.
@MainActor
@Suite(.serialized)
struct OtherConnectionTests {
    @Test func aFetchAfterAnotherConnectionsCommitReturnsTheRowsValues() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET title = 'X' WHERE uniqueID = 1")

        // Asked before any wake-up could arrive: the fetch looks at the log first.
        let fetched = try await store.fetch(Todo.self, where: "uniqueID = 1")
        #expect(fetched.first === task)
        #expect(task.title == "X")
        try await store.close()
    }

    @Test func anUnsavedEditOfAColumnAnotherWriterAlsoChangedKeepsItsValue() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        task.title = "Mine"  // not saved
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET title = 'Theirs' WHERE uniqueID = 1")
        _ = try await store.count(Todo.self)
        #expect(task.title == "Mine")
        try await store.save(task).committed()
        #expect(try await store.fetchRows("SELECT title, done FROM tasks WHERE uniqueID = 1") == [[.text("Mine"), .integer(0)]])
        try await store.close()
    }

    /// A class that does not mark its changes leaves the store only a hash of the row as the
    /// instance showed it: when another writer changed the column the app edited and another one
    /// besides, the store can't tell which the app edited, and the row as written wins.
    @Test func anUnsavedEditOfAColumnAnotherWriterChangedWithOthersTakesTheRow() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        task.title = "Mine"  // not saved
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET title = 'Theirs', done = 1 WHERE uniqueID = 1")
        _ = try await store.count(Todo.self)
        #expect(task.title == "Theirs")
        #expect(task.done)
        // Memory and disk agree: nothing to write.
        let log = try await store.recordStatements { try await store.save(task).committed() }
        #expect(log.statements.filter { $0.hasPrefix("UPDATE") }.isEmpty, "\(log)")
        try await store.close()
    }

    @Test func readingTheLogAfterAOneRowChangeCostsOneStatement() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 2))
        let other = try SQLiteConnection(path: url.path)

        // Whether the file watcher's wake-up or the count looks first, the log is read once.
        let log = try await store.recordStatements {
            try await store.flush()  // any wake-up from the store's own writes has had its look
            try other.execute("UPDATE tasks SET title = 'Changed' WHERE uniqueID = 2")
            _ = try await store.count(Todo.self)
        }
        let logReads = log.statements.filter { $0.contains("FROM qsdata_changes") }
        #expect(logReads.count == 1, "\(log)")
        #expect(!log.changeLogBookkeeping.filter { $0 == "PRAGMA data_version" }.isEmpty)
        // The log read, the changed row read again, and the count itself.
        #expect(log.count == 3, "\(log)")
        #expect(task.title == "Changed")
        try await store.close()
    }

    @Test func anUnsavedEditInMemoryKeepsItsValueWhileTheOtherColumnsFollowTheRow() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 3))
        task.done = true  // not saved
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET title = 'Renamed' WHERE uniqueID = 3")
        _ = try await store.count(Todo.self)

        #expect(task.title == "Renamed", "the column the app did not touch follows the row")
        #expect(task.done, "the app's unsaved edit stays")
        // Saved, the row is read and the edit is written, and only it.
        let log = try await store.recordStatements {
            try store.save(task)
            try await store.flush()
        }
        #expect(log.statements == [rowReadSQL("tasks", ["uniqueID", "done", "title"]), #"UPDATE "tasks" SET "done" = ? WHERE "uniqueID" = ?"#], "\(log)")
        #expect(try await store.fetchRows("SELECT title, done FROM tasks WHERE uniqueID = 3") == [[.text("Renamed"), .integer(1)]])
        try await store.close()
    }

    @Test(.enabled(if: OtherWriters.sqlite3 != nil, "the sqlite3 shell is not installed"))
    func aPlainSQLiteSessionIsSeenWithTheColumnsItChanged() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        let changes = store.changes
        _ = try await OtherWriters.run(OtherWriters.sqlite3, [url.path, "UPDATE tasks SET title = 'From sqlite3' WHERE uniqueID = 1"])

        let change = try await OtherWriters.nextChange(on: changes) { $0.origin == .otherConnection }
        #expect(change.updatedIDs(of: Todo.self) == [1])
        #expect(task.title == "From sqlite3")
        let entry = try await store.fetchRows("SELECT tableName, kind, ids, columns, writer FROM qsdata_changes ORDER BY seq DESC LIMIT 1")
        #expect(entry == [[.text("tasks"), .text("update"), .text("[1]"), .text("title"), .null]])
        try await store.close()
    }

    @Test func theAppsSQLThroughTheStoreReachesHeldInstancesAndObservers() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        var heard: [QSChange] = []
        let observation = store.observeChanges { heard.append($0) }
        defer { observation.cancel() }

        try await store.execute("UPDATE tasks SET title = 'After raw SQL' WHERE uniqueID = 1")
        #expect(task.title == "After raw SQL")
        #expect(heard.last?.origin == .appSQL)
        #expect(heard.last?.updatedIDs(of: Todo.self) == [1])

        try store.write { db in try db.execute("UPDATE tasks SET done = 1 WHERE uniqueID = 1") }
        try await store.flush()
        #expect(task.done)
        #expect(heard.last?.origin == .appSQL)

        _ = try await store.writeAndWait { db in try db.execute("DELETE FROM tasks WHERE uniqueID = 1") }
        #expect(heard.last?.deletedIDs(of: Todo.self) == [1])
        #expect(try store.cachedObject(of: Todo.self, id: 1) == nil)
        try await store.close()
    }

    @Test func theAppsOwnTriggersStillFireForTheStoresWritesAndItsSQL() async throws {
        let (store, _) = try await OtherWriters.openStore()
        try await store.execute("CREATE TABLE titlesSeen (title TEXT)")
        try await store.execute("CREATE TRIGGER rememberTitles AFTER INSERT ON tasks BEGIN INSERT INTO titlesSeen VALUES (NEW.title); END")
        try store.save(Todo(uniqueID: 10, title: "saved"))
        try await store.flush()
        try await store.execute("INSERT INTO tasks (uniqueID, title, done) VALUES (11, 'by SQL', 0)")
        let seen = try await store.fetchRows("SELECT title FROM titlesSeen ORDER BY rowid")
        #expect(seen == [[.text("saved")], [.text("by SQL")]], "each once")
        try await store.close()
    }

    @Test func theStoresOwnTransactionsWriteOneEntryPerTableAndKind() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let before = try OtherWriters.logEntryCount(at: url)
        let todos = (100..<1_100).map { Todo(uniqueID: Int64($0), title: "bulk \($0)") }
        try store.save(todos)
        try store.update(Todo.self, where: "uniqueID >= 100", set: ["done": true])
        try await store.flush()
        // One insert entry for the save, one update entry for the bulk update.
        #expect(try OtherWriters.logEntryCount(at: url) - before == 2)
        try await store.close()
    }

    @Test func entriesEveryOpenStoreHasReadAreRemoved() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let other = try await TodoModel.openStore(at: url)
        for round in 1...200 {
            try store.save(Todo(uniqueID: 1_000 + Int64(round), title: "round \(round)"))
            if round % 10 == 0 {
                try await store.flush()
                _ = try await other.count(Todo.self)  // the other store reads on
                try other.save(Todo(uniqueID: 5_000 + Int64(round), title: "other \(round)"))
                try await other.flush()
            }
        }
        try await store.flush()
        let remaining = try OtherWriters.logEntryCount(at: url)
        #expect(remaining < 100, "\(remaining) of 220 entries kept")
        try await other.close()
        try await store.close()
    }

    @Test func aStoreThatMissedRemovedEntriesRereadsWhatItHolds() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 2))
        let other = try SQLiteConnection(path: url.path)
        try other.transaction {
            try other.execute("UPDATE tasks SET title = 'Unlogged' WHERE uniqueID = 2")
            // As if pruned while the store was away: its entries are gone, later ones follow.
            try other.execute("DELETE FROM qsdata_changes")
            try other.execute("INSERT INTO tasks (uniqueID, title, done) VALUES (50, 'later', 0)")
        }
        var heard: [QSChange] = []
        let observation = store.observeChanges { heard.append($0) }
        defer { observation.cancel() }
        _ = try await store.count(Todo.self)

        #expect(task.title == "Unlogged", "everything held was read again")
        #expect(heard.last?.mayOmitRows == true)
        #expect(heard.last?.typeNames.contains("Todo") == true)
        try await store.close()
    }

    @Test func aTypeThatOptsOutHasNoTriggers() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await OtherWriters.openStoreLeavingTasksOutOfTheLog(url: url)
        let triggers = try await store.fetchRows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'qsdata_log_tasks%'")
        #expect(triggers.isEmpty)
        let projectTriggers = try await store.fetchRows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'qsdata_log_projects%'")
        #expect(projectTriggers.count == 3)
        try await store.close()
    }
}
