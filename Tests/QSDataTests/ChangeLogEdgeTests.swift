import Foundation
import QSData
import QSDataTodoModel
import Testing

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
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await OtherWriters.openStoreLeavingTasksOutOfTheLog(url: url)
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
