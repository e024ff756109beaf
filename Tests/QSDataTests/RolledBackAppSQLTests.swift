import Foundation
import QSData
import QSDataTodoModel
import Testing

/// What the app's own SQL logged in a transaction that then rolls back leaves no trace in the
/// store: not in its place in the change log, not in what it knows of the rows.
@MainActor
@Suite(.serialized)
struct RolledBackAppSQLTests {
    @Test func aTransactionFailingAtItsCommitAfterTheAppsSQLWasReadBackLeavesNoTraceOfIt() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let first = try #require(try await store.fetch(Todo.self, id: 1))
        let second = try #require(try await store.fetch(Todo.self, id: 2))
        let third = try #require(try await store.fetch(Todo.self, id: 3))
        try await OtherWriters.refuseTheStoresEntriesOnceTaskTwoIsDone(in: store)

        let batch = try store.performBatch {
            try store.write { try $0.execute("UPDATE tasks SET title = 'rolled back' WHERE uniqueID = 1") }
            second.done = true
            try store.save(second)
        }
        let error = await #expect(throws: QSWriteError.self) { try await batch.committed() }
        #expect(error?.wasRolledBack == true)
        try await store.flush()
        #expect(first.title == "task 1")
        #expect(!second.done, "restored to what the database holds")

        // Another connection's next entry takes the number the rolled-back one had: the store
        // reads it all the same.
        let other = try SQLiteConnection(path: url.path)
        try other.execute("UPDATE tasks SET title = 'elsewhere' WHERE uniqueID = 3")
        _ = try await store.count(Todo.self)
        #expect(third.title == "elsewhere")

        // The row holds 'task 1': saving the title the rolled-back SQL had set writes it.
        first.title = "rolled back"
        try await store.save(first).committed()
        #expect(try await store.fetchRows("SELECT title FROM tasks WHERE uniqueID = 1") == [[.text("rolled back")]])
        try await store.close()
    }
}
