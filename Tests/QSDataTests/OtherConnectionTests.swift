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
        // Saved, the edit is written, and only it.
        let log = try await store.recordStatements {
            try store.save(task)
            try await store.flush()
        }
        #expect(log.count == 1, "\(log)")
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
        let plist = TodoModel.model.replacingOccurrences(
            of: "<key>table</key><string>tasks</string>", with: "<key>table</key><string>tasks</string><key>logChanges</key><false/>")
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(plist.utf8), fileName: "Todos.plist"),
            schema: QSSchema(creationSQL: TodoModel.schema), types: [Project.self, Todo.self])
        let triggers = try await store.fetchRows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'qsdata_log_tasks%'")
        #expect(triggers.isEmpty)
        let projectTriggers = try await store.fetchRows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'qsdata_log_projects%'")
        #expect(projectTriggers.count == 3)
        try await store.close()
    }
}

/// A migration may drop or rename a column the change log's triggers name.
@MainActor
struct ChangeLogMigrationTests {
    @Test func aMigrationThatDropsALoggedColumnRunsAndTheLogFollowsTheNewColumns() async throws {
        let (store, url) = try await OtherWriters.openStore()
        try await store.close()
        let migrated = try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(TodoModel.model.replacingOccurrences(
                of: "<key>done</key><string>boolean</string>", with: "").utf8), fileName: "Todos.plist"),
            schema: QSSchema(creationSQL: TodoModel.schema, migrations: [QSMigration(version: 1, name: "1-no-done.sql", sql: "ALTER TABLE tasks DROP COLUMN done")]),
            types: [Project.self, TodoWithoutDone.self])
        let trigger = try await migrated.fetchRows("SELECT sql FROM sqlite_master WHERE name = 'qsdata_log_tasks_update'")
        #expect(trigger.count == 1)
        #expect(trigger.first?.first?.plain.contains("\"done\"") == false)
        try await migrated.execute("UPDATE tasks SET title = 'after the migration' WHERE uniqueID = 1")
        try await migrated.close()
    }
}

/// A task as it is once the `done` column is gone.
final class TodoWithoutDone: QSUpdatableObject {
    static var modelName: String { "Todo" }
    let uniqueID: Int64
    var title: String

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
    }
}

/// `refresh` re-reads what the store holds, for a table the model leaves out of the change log;
/// and a writer whose table has a column the store's model doesn't know is still seen.
@MainActor
struct RefreshAndCompatibleWriterTests {
    @Test func refreshReReadsTheInstancesOfATableLeftOutOfTheLog() async throws {
        let plist = TodoModel.model.replacingOccurrences(
            of: "<key>table</key><string>tasks</string>", with: "<key>table</key><string>tasks</string><key>logChanges</key><false/>")
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(plist.utf8), fileName: "Todos.plist"),
            schema: QSSchema(creationSQL: TodoModel.schema), types: [Project.self, Todo.self])
        let first = Todo(uniqueID: 1, title: "one"), second = Todo(uniqueID: 2, title: "two")
        try await store.save([first, second]).committed()
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET title = 'changed ' || uniqueID")
        _ = try await store.count(Todo.self)
        #expect(first.title == "one", "the table is not logged: nothing told the store")

        let log = try await store.recordStatements {
            let refreshed = try await store.refresh([first])
            #expect(refreshed == [1])
        }
        #expect(first.title == "changed 1")
        #expect(second.title == "two", "only what was asked for")
        #expect(log.count == 1, "\(log)")
        #expect(try await store.refresh(Todo.self).sorted() == [1, 2])
        #expect(second.title == "changed 2")
        try await store.close()
    }

    @Test func aWriterWhoseTableHasAColumnTheModelLacksIsSeen() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        let other = try SQLiteConnection(path: url.path)
        try other.execute("ALTER TABLE tasks ADD COLUMN note TEXT")
        try other.execute("UPDATE tasks SET title = 'with a note', note = 'kept elsewhere' WHERE uniqueID = 1")
        _ = try await store.fetch(Todo.self, where: "uniqueID = 1")
        #expect(task.title == "with a note")
        try store.save(Todo(uniqueID: 9, title: "saved after"))
        try await store.flush()
        #expect(try await store.fetchRows("SELECT note FROM tasks WHERE uniqueID = 1") == [[.text("kept elsewhere")]])
        try await store.close()
    }
}

/// After a save of a new object rolls back, neither side of the store keeps an instance for
/// the row it never made: a row another connection inserts later is cached as it is.
@MainActor
struct RolledBackInsertTests {
    struct Refused: Error {}

    @Test func aRowInsertedElsewhereAfterARolledBackSaveOfItIsCachedAsItIs() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await PodcastFixtures.openStore(url: url)
        try store.save([Podcast(uniqueID: 9, title: "never saved")], alongside: { _ in throw Refused() })
        await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(try store.cachedObject(of: Podcast.self, id: 9) == nil)

        let other = try SQLiteConnection(path: url.path)
        try other.execute("INSERT INTO podcasts (uniqueID, title) VALUES (9, 'from elsewhere')")
        _ = try await store.count(Podcast.self)
        #expect(try store.cachedObject(of: Podcast.self, id: 9)?.title == "from elsewhere")
        let fetched = try await store.fetch(Podcast.self, where: "uniqueID = 9")
        #expect(fetched.first === (try store.cachedObject(of: Podcast.self, id: 9)))
        try await store.close()
    }
}
