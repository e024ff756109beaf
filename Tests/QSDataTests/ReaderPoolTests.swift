import Foundation
import QSData
import QSDataTodoModel
import Testing

/// The reader connections: bounded, opened when needed, shared in turn by more reads than there
/// are connections, given up on after the wait limit, and closed only once their reads end.
@MainActor
@Suite(.serialized)
struct ReaderPoolTests {
    private func openStore(_ options: QSStoreOptions) async throws -> QSStore {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: QSDataModel(propertyList: Data(TodoModel.model.utf8), fileName: "Todos.plist"),
            schema: QSSchema(creationSQL: TodoModel.schema), types: [Project.self, Todo.self], options: options)
        let todos = (1...3).map { Todo(uniqueID: Int64($0), title: "task \($0)") }
        try await store.save(Project(uniqueID: 1, name: "Home", tasks: todos)).committed()
        return store
    }

    private func holdBackgroundWrite(_ store: QSStore, pause: ThreadPause) throws -> QSWrite {
        try store.performInBackground {
            try store.save(Todo(uniqueID: 100, title: "background"))
            try store.write("hold the transaction") { _ in pause.hold() }
        }
    }

    @Test func moreReadsAtOnceThanReadersAllFinishWithoutDeadlock() async throws {
        let store = try await openStore(QSStoreOptions(readerCount: 2))
        let pause = ThreadPause()
        let write = try holdBackgroundWrite(store, pause: pause)
        try await pause.waitUntilReached()

        // Twelve live queries and twelve fetches at once, on two readers.
        let results = try await Waiting.within(onTimeout: pause.release) {
            var reads: [Task<Int, any Error>] = []
            for index in 0 ..< 12 {
                reads.append(Task { @MainActor in
                    let live = try await store.liveQuery(QSQuery(Todo.self, where: "uniqueID >= ?", arguments: [.integer(Int64(index % 2))]))
                    return live.objects.count
                })
                reads.append(Task { @MainActor in try await store.fetch(Project.self, id: 1)?.tasks.count ?? -1 })
            }
            var counts: [Int] = []
            for read in reads { counts.append(try await read.value) }
            return counts
        }
        #expect(results.count == 24)
        #expect(results.allSatisfy { $0 == 3 })
        pause.release()
        try await write.committed()
        try await store.close()
    }

    @Test func aReadThatFindsEveryReaderBusyPastTheLimitThrowsReadersBusy() async throws {
        let store = try await openStore(QSStoreOptions(readerCount: 1, readerWaitLimit: .milliseconds(100)))
        let writerPause = ThreadPause()
        let write = try holdBackgroundWrite(store, pause: writerPause)
        try await writerPause.waitUntilReached()
        let readerPause = ThreadPause()
        let holding = Task { try await store.read { _ in readerPause.hold() } }
        try await readerPause.waitUntilReached()

        // The only reader stays held until after this read has given up.
        await #expect(throws: QSDataError.readersBusy(waited: .milliseconds(100))) {
            try await store.count(Todo.self)
        }
        readerPause.release()
        try await holding.value
        #expect(try await store.count(Todo.self) == 3, "the reader serves reads again once given back")
        writerPause.release()
        try await write.committed()
        try await store.close()
    }

    @Test func closeWaitsForTheReadsAndTheWriteInFlight() async throws {
        let store = try await openStore(QSStoreOptions())
        let events = LockedEvents()
        let writerPause = ThreadPause()
        let write = try holdBackgroundWrite(store, pause: writerPause)
        try await writerPause.waitUntilReached()
        let readerPause = ThreadPause()
        let reading = Task {
            try await store.read { connection in
                // The read's snapshot is taken by its first statement, before the write commits.
                let count = try connection.fetchValue("SELECT count(*) FROM tasks")
                readerPause.hold()
                events.append("read ended")
                return count
            }
        }
        try await readerPause.waitUntilReached()

        let closing = Task { @MainActor in
            try await store.close()
            events.append("closed")
        }
        events.append("releasing the writer")
        writerPause.release()
        try await write.committed()
        events.append("releasing the reader")
        readerPause.release()
        try await closing.value
        #expect(try await reading.value == .integer(3))
        #expect(events.all == ["releasing the writer", "releasing the reader", "read ended", "closed"])
        await #expect(throws: QSDataError.storeClosed) { try await store.count(Todo.self) }
    }

    @Test func readersAreOpenedOnlyWhenABackgroundWriteNeedsThem() async throws {
        let store = try await openStore(QSStoreOptions(readerCount: 3))
        _ = try await store.fetchAll(Todo.self)
        #expect(store.openReaderCount == 0)
        let pause = ThreadPause()
        let write = try holdBackgroundWrite(store, pause: pause)
        try await pause.waitUntilReached()
        _ = try await Waiting.within(onTimeout: pause.release) { try await store.count(Todo.self) }
        #expect(store.openReaderCount == 1)
        pause.release()
        try await write.committed()
        try await store.close()
    }

    @Test func aBackgroundWriteThatGrowsTheLogPastTheLimitLeavesItCutBack() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(TodoModel.model.utf8), fileName: "Todos.plist"),
            schema: QSSchema(creationSQL: TodoModel.schema), types: [Project.self, Todo.self],
            options: QSStoreOptions(walSizeLimit: 64 << 10))
        func walSize() throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path + "-wal")
            return (attributes[.size] as? NSNumber)?.intValue ?? -1
        }
        let tasks = (1...5_000).map { Todo(uniqueID: Int64($0), title: String(repeating: "a long title ", count: 8)) }
        // A foreground write of the same size leaves the log as SQLite's checkpoints leave it.
        try await store.save(tasks).committed()
        try await store.flush()
        #expect(try walSize() > 64 << 10)
        for task in tasks { task.title = "renamed " + task.title }
        try await store.performInBackground { try store.save(tasks) }.committed()
        try await store.flush()
        #expect(try walSize() == 0)
        #expect(try await store.count(Todo.self, where: "title LIKE 'renamed%'") == 5_000)
        try await store.close()
    }
}
