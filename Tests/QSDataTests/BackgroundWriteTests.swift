import Foundation
import QSData
import QSDataTodoModel
import Testing

/// Background writes: reads issued while one runs go to reader connections and see the last
/// committed state, never the write half done, and never wait for it.
///
/// Each test holds the background write's transaction open (a raw-SQL step inside it waits on a
/// `ThreadPause`) while it reads: a read that waited for the write would time out.
@MainActor
@Suite(.serialized)
struct BackgroundWriteTests {
    /// Starts a background write that saves `tasks` and then holds its transaction open.
    private func holdBackgroundWrite(_ store: QSStore, saving tasks: [Todo], pause: ThreadPause) throws -> QSWrite {
        try store.performInBackground {
            try store.save(tasks)
            try store.write("hold the transaction") { _ in pause.hold() }
        }
    }

    @Test func readsDuringABackgroundWriteSeeTheLastCommittedStateAndDoNotWait() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let pause = ThreadPause()
        let write = try holdBackgroundWrite(store, saving: (4...103).map { Todo(uniqueID: $0, title: "new \($0)") }, pause: pause)
        try await pause.waitUntilReached()

        let (count, ids, rows) = try await Waiting.within(onTimeout: pause.release) {
            (try await store.count(Todo.self),
             try await store.fetchIDs(Todo.self, orderBy: "uniqueID"),
             try await store.fetchRows("SELECT count(*) FROM tasks"))
        }
        #expect(count == 3)
        #expect(ids == [1, 2, 3])
        #expect(rows == [[.integer(3)]])

        pause.release()
        try await write.committed()
        #expect(try await store.count(Todo.self) == 103)
        try await store.close()
    }

    @Test func aFetchDuringABackgroundWriteHandsOutTheHeldInstancesAndNewOnesForTheRest() async throws {
        let (store, _) = try await OtherWriters.openStore(tasks: 5)
        let held = try #require(try await store.fetch(Todo.self, id: 2))
        let pause = ThreadPause()
        let write = try holdBackgroundWrite(store, saving: [Todo(uniqueID: 6, title: "six")], pause: pause)
        try await pause.waitUntilReached()

        let (tasks, project) = try await Waiting.within(onTimeout: pause.release) {
            (try await store.fetch(Todo.self, where: "uniqueID <= 5", orderBy: "uniqueID"),
             try await store.fetch(Project.self, id: 1))
        }
        #expect(tasks.map(\.uniqueID) == [1, 2, 3, 4, 5])
        #expect(tasks[1] === held)
        // The project, read on a reader, lists the very instances the main actor holds.
        let children = try #require(project?.tasks)
        #expect(children.map(\.uniqueID) == [1, 2, 3, 4, 5])
        for (child, task) in zip(children, tasks) { #expect(child === task) }

        pause.release()
        try await write.committed()
        // Read again on the queue: still one instance per row.
        let again = try await store.fetch(Todo.self, where: "uniqueID <= 6", orderBy: "uniqueID")
        for (first, second) in zip(tasks, again) { #expect(first === second) }
        #expect(again.last?.title == "six")
        try await store.close()
    }

    @Test func aReaderSnapshotNeverTakesBackWhatTheAppHoldsInMemory() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let first = try #require(try await store.fetch(Todo.self, id: 1))
        let pause = ThreadPause()
        // The background write saves a changed title for task 1, and a new task 4 the app lets go.
        first.title = "renamed"
        let write = try holdBackgroundWrite(store, saving: [first, Todo(uniqueID: 4, title: "four")], pause: pause)
        try await pause.waitUntilReached()

        let fetched = try await Waiting.within(onTimeout: pause.release) {
            try await store.fetch(Todo.self, where: "uniqueID = 1")
        }
        #expect(fetched.first === first)
        #expect(first.title == "renamed", "the app's value stays, though the reader's row says 'task 1'")

        pause.release()
        try await write.committed()
        #expect(try await store.fetchRows("SELECT title FROM tasks WHERE uniqueID = 1") == [[.text("renamed")]])
        let four = try await store.fetch(Todo.self, id: 4)
        #expect(four?.title == "four")
        try await store.close()
    }

    @Test func aSavedInstanceTheAppLetGoIsNotReadBackOlderWhileItsWriteRuns() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let pause = ThreadPause()
        let write: QSWrite
        do {
            // Fetched, changed, saved in the background, and let go: only the write holds it.
            let task = try #require(try await store.fetch(Todo.self, id: 3))
            task.title = "changed in the background"
            write = try holdBackgroundWrite(store, saving: [task], pause: pause)
        }
        try await pause.waitUntilReached()

        let fetched = try await Waiting.within(onTimeout: pause.release) {
            try await store.fetch(Todo.self, id: 3)
        }
        #expect(fetched?.title == "changed in the background")

        pause.release()
        try await write.committed()
        #expect(try await store.fetch(Todo.self, id: 3)?.title == "changed in the background")
        try await store.close()
    }

    @Test func aReadSeesTheForegroundWritesEnqueuedBeforeTheBackgroundOne() async throws {
        let (store, _) = try await OtherWriters.openStore()
        try store.save(Todo(uniqueID: 10, title: "foreground, before"))  // not awaited
        let pause = ThreadPause()
        let write = try holdBackgroundWrite(store, saving: [Todo(uniqueID: 11, title: "background")], pause: pause)
        try await pause.waitUntilReached()

        let ids = try await Waiting.within(onTimeout: pause.release) {
            try await store.fetchIDs(Todo.self, orderBy: "uniqueID")
        }
        #expect(ids == [1, 2, 3, 10])

        pause.release()
        try await write.committed()
        try await store.close()
    }

    @Test func aReadAfterAForegroundWriteEnqueuedBehindABackgroundOneSeesBoth() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let pause = ThreadPause()
        let write = try holdBackgroundWrite(store, saving: [Todo(uniqueID: 20, title: "background")], pause: pause)
        try await pause.waitUntilReached()
        try store.save(Todo(uniqueID: 21, title: "foreground, after"))  // behind the background write

        // This read must see the foreground save, so it waits on the queue for both.
        let reading = Task { try await store.fetchIDs(Todo.self, orderBy: "uniqueID") }
        pause.release()
        #expect(try await reading.value == [1, 2, 3, 20, 21])
        try await write.committed()
        try await store.close()
    }

    @Test func readsAfterTheBackgroundWriteCommitsSeeIt() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let write = try store.performInBackground {
            try store.save((4...9).map { Todo(uniqueID: $0, title: "t\($0)") })
        }
        try await write.committed()
        #expect(try await store.count(Todo.self) == 9)
        #expect(try await store.fetch(Todo.self, where: "uniqueID > 3").count == 6)
        try await store.close()
    }

    @Test func aFailedBackgroundWriteRollsBackWholeAndReadsNeverSawAnyOfIt() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let pause = ThreadPause()
        struct Refused: Error {}
        let write = try store.performInBackground {
            try store.save((30...39).map { Todo(uniqueID: $0, title: "t\($0)") })
            try store.write("hold, then fail") { _ in
                pause.hold()
                throw Refused()
            }
        }
        try await pause.waitUntilReached()
        let during = try await Waiting.within(onTimeout: pause.release) { try await store.count(Todo.self) }
        #expect(during == 3)
        pause.release()
        await #expect(throws: QSWriteError.self) { try await write.committed() }
        #expect(try await store.count(Todo.self) == 3)
        try await store.close()
    }

    @Test func aBodyThatThrowsWritesNothingAndReadsGoBackToTheQueue() async throws {
        let (store, _) = try await OtherWriters.openStore()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.performInBackground {
                try store.save(Todo(uniqueID: 40, title: "never"))
                throw Stop()
            }
        }
        try await store.flush()
        #expect(try await store.count(Todo.self) == 3)
        #expect(try await store.fetch(Todo.self, id: 40) == nil)
        try await store.close()
    }

    @Test func aLiveQueryStartedDuringABackgroundWriteGetsTheCommittedRowsThenTheWrite() async throws {
        let (store, _) = try await OtherWriters.openStore()
        let pause = ThreadPause()
        let write = try holdBackgroundWrite(store, saving: [Todo(uniqueID: 50, title: "fifty")], pause: pause)
        try await pause.waitUntilReached()

        let live = try await Waiting.within(onTimeout: pause.release) {
            try await store.liveQuery(QSQuery(Todo.self, orderBy: "uniqueID"))
        }
        #expect(live.objects.map(\.uniqueID) == [1, 2, 3])

        pause.release()
        try await write.committed()
        try await live.waitUntilCurrent()
        #expect(live.objects.map(\.uniqueID) == [1, 2, 3, 50])
        try await store.close()
    }

    @Test func aFetchOnAReaderRunsTheStatementsItRunsOnTheQueue() async throws {
        let (first, url) = try await OtherWriters.openStore(tasks: 4)
        try await first.close()
        let store = try await TodoModel.openStore(at: url)  // opened again: nothing held
        // On the queue, with nothing held: the project's lookup rows, its four tasks, the project.
        let onQueue = try await store.recordStatements { _ = try await store.fetch(Project.self, where: "uniqueID = 1") }
        #expect(onQueue.count == 3, "\(onQueue)")

        let pause = ThreadPause()
        let write = try holdBackgroundWrite(store, saving: [Todo(uniqueID: 9, title: "nine")], pause: pause)
        try await pause.waitUntilReached()
        var fetched: Project?
        // The log is handed back once the queue has finished what came before, the held write too.
        let recording = Task {
            try await store.recordStatements { fetched = try await store.fetch(Project.self, where: "uniqueID = 1").first }
        }
        try await Waiting.within(onTimeout: pause.release) {
            while fetched == nil { try await Task.sleep(for: .milliseconds(1)) }
        }
        pause.release()
        let onReader = try await recording.value
        try await write.committed()
        #expect(fetched?.tasks.count == 4)
        #expect(onReader.count == 3, "\(onReader)")
        #expect(onReader.statements.allSatisfy { $0.hasPrefix("SELECT") }, "\(onReader)")
        try await store.close()
    }
}
