import Foundation
import QSData
import QSDataTodoModel
import Testing

/// A save the app makes before the store has read another writer's commit to the same row: the
/// columns the app changed are its own, every other column keeps what the other writer wrote, in
/// the file and in memory.
@MainActor
@Suite(.serialized)
struct SavesBesideOtherWritersTests {
    @Test func anUnmarkedSaveKeepsTheColumnsAnotherWriterChangedBeforeTheStoreReadThem() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET done = 1 WHERE uniqueID = 1")

        // No await between the other commit and the save: the store has not read it yet.
        task.title = "mine"
        try store.save(task)
        try await store.flush()
        #expect(try await store.fetchRows("SELECT title, done FROM tasks WHERE uniqueID = 1") == [[.text("mine"), .integer(1)]])
        #expect(task.title == "mine")
        #expect(task.done)

        // The store's snapshot of the row is what the row holds: undoing the other writer's
        // change in memory and saving writes it.
        task.done = false
        try await store.save(task).committed()
        #expect(try await store.fetchRows("SELECT title, done FROM tasks WHERE uniqueID = 1") == [[.text("mine"), .integer(0)]])
        try await store.close()
    }

    @Test func aMarkedSaveKeepsTheColumnsAnotherWriterChangedBeforeTheStoreReadThem() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await QSStore.open(
            at: url, model: Fixtures.model(), schema: QSSchema(creationSQL: Fixtures.schemaSQL),
            types: [TrackedNote.self, Tag.self, Attachment.self])
        try await store.save(TrackedNote(uniqueID: 1, text: "note")).committed()
        let note = try #require(try await store.fetch(TrackedNote.self, id: 1))
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE notes SET archived = 1 WHERE uniqueID = 1")

        note.text = "mine"
        try store.save(note)
        try await store.flush()
        #expect(try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = 1") == [[.text("mine"), .integer(1)]])
        #expect(note.text == "mine")
        #expect(note.archived)
        try await store.close()
    }

    @Test func anotherWritersCommitReadByATransactionThatRollsBackStillReachesTheInstances() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let second = try #require(try await store.fetch(Todo.self, id: 2))
        let third = try #require(try await store.fetch(Todo.self, id: 3))
        // Saving task 2 done rolls back.
        try await OtherWriters.refuseTheStoresEntriesOnceTaskTwoIsDone(in: store)
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET title = 'elsewhere' WHERE uniqueID = 3")

        second.done = true
        let write = try store.save(second)
        await #expect(throws: QSWriteError.self) { try await write.committed() }
        try await store.flush()
        #expect(!second.done)
        _ = try await store.count(Todo.self)
        #expect(third.title == "elsewhere")
        try await store.close()
    }

    @Test func aSaveAfterATransactionThatRolledBackIsNotComparedWithWhatThatTransactionWrote() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let second = try #require(try await store.fetch(Todo.self, id: 2))
        try await OtherWriters.refuseTheStoresEntriesOnceTaskTwoIsDone(in: store)

        // The app's SQL is read back after the save wrote the title; then the transaction rolls back.
        let batch = try store.performBatch {
            second.title = "mine"
            try store.save(second)
            try store.write { db in try db.execute("UPDATE tasks SET done = 1 WHERE uniqueID = 2") }
        }
        await #expect(throws: QSWriteError.self) { try await batch.committed() }
        try await store.flush()
        #expect(second.title == "task 2")

        // Saved twice more: the second save is compared with what the first wrote.
        second.title = "another"
        try await store.save(second).committed()
        second.title = "mine"
        try await store.save(second).committed()
        #expect(try await store.fetchRows("SELECT title, done FROM tasks WHERE uniqueID = 2") == [[.text("mine"), .integer(0)]])
        try await store.close()
    }

    @Test func aSaveEncodedOnceTheChangeWasMergedComparesWithTheRowAsItIsNow() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET done = 1 WHERE uniqueID = 1")
        _ = try await store.count(Todo.self)
        #expect(task.done)

        // Nothing differs from the row as the merge left it: nothing is written.
        let unchanged = try await store.recordStatements { try await store.save(task).committed() }
        #expect(unchanged.statements.filter { $0.hasPrefix("UPDATE") || $0.hasPrefix("INSERT") }.isEmpty, "\(unchanged)")
        task.title = "mine"
        let changed = try await store.recordStatements { try await store.save(task).committed() }
        #expect(changed.statements == [rowReadSQL("tasks", ["uniqueID", "done", "title"]), #"UPDATE "tasks" SET "title" = ? WHERE "uniqueID" = ?"#], "\(changed)")
        #expect(try await store.fetchRows("SELECT title, done FROM tasks WHERE uniqueID = 1") == [[.text("mine"), .integer(1)]])
        try await store.close()
    }

    @Test func aParentSavedBeforeTheStoreReadAnotherWritersChangeToItsListKeepsThatChange() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let project = try #require(try await store.fetch(Project.self, id: 1))
        #expect(project.tasks.map(\.uniqueID) == [1, 2, 3])
        let other = try SQLiteConnection(path: url.path)
        try other.execute("DELETE FROM projectTasks WHERE projectID = 1 AND taskID = 3")

        project.name = "Work"
        try store.save(project)
        try await store.flush()
        #expect(try await store.fetchRows("SELECT taskID FROM projectTasks WHERE projectID = 1 ORDER BY ix") == [[.integer(1)], [.integer(2)]])
        #expect(project.tasks.map(\.uniqueID) == [1, 2])
        try await store.close()
    }

    @Test func everySaveMadeBeforeTheStoreMergedAnotherWritersCommitKeepsIt() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET done = 1 WHERE uniqueID = 1")

        // Three saves in one turn of the main actor: none can see the change merged.
        for title in ["first", "second", "third"] {
            task.title = title
            try store.save(task)
        }
        try await store.flush()
        #expect(try await store.fetchRows("SELECT title, done FROM tasks WHERE uniqueID = 1") == [[.text("third"), .integer(1)]])
        #expect(task.done)
        task.title = "fourth"
        try await store.save(task).committed()
        #expect(try await store.fetchRows("SELECT title, done FROM tasks WHERE uniqueID = 1") == [[.text("fourth"), .integer(1)]])
        try await store.close()
    }
}
