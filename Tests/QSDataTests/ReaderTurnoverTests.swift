import Dispatch
import Foundation
@testable import QSData
import QSDataTodoModel
import Testing

/// A reader connection passes to the next read in line on its own queue, so reads waiting for a
/// connection go on while every thread of Swift's cooperative pool is busy: only each read's
/// caller waits for one of those threads, to be resumed.
@MainActor
@Suite(.serialized)
struct ReaderTurnoverTests {
    @Test func aReadInLineStartsWhileEveryCooperativeThreadIsBlocked() async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: QSDataModel(propertyList: Data(TodoModel.model.utf8), fileName: "Todos.plist"),
            schema: QSSchema(creationSQL: TodoModel.schema), types: [Project.self, Todo.self], options: QSStoreOptions(readerCount: 1))
        try await store.save(Todo(uniqueID: 1, title: "task")).committed()
        // A background write in flight sends reads to the reader connection.
        let writerPause = ThreadPause()
        let write = try store.performInBackground {
            try store.save(Todo(uniqueID: 100, title: "background"))
            try store.write("hold the transaction") { _ in writerPause.hold() }
        }
        try await writerPause.waitUntilReached()

        // The first read holds the only reader; the second waits in line for it.
        let firstPause = ThreadPause()
        let first = Task { try await store.read { _ in firstPause.hold() } }
        try await firstPause.waitUntilReached()
        let secondStarted = DispatchSemaphore(value: 0)
        let second = Task { try await store.read { connection in
            secondStarted.signal()
            return try connection.fetchValue("SELECT count(*) FROM tasks")
        } }
        try await Waiting.within(onTimeout: firstPause.release) {
            while store.readers.waitingCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }

        // Every thread of the cooperative pool blocked, then the first read let go: the second
        // must start on the reader's queue. The blocking and the waiting happen on a thread of
        // the test's own, so that neither the main actor nor any other test's work on it stalls
        // meanwhile (reads that load relationships wait for a turn on the main actor).
        let outcome = await onOwnThread { () -> (allBlocked: Bool, secondStarted: Bool) in
            let blockers = CooperativePoolBlocker()
            defer { blockers.release() }
            guard blockers.blockEveryThread() else { return (false, false) }
            firstPause.release()
            return (true, secondStarted.wait(timeout: .now() + 10) == .success)
        }
        firstPause.release()
        #expect(outcome.allBlocked, "every thread of the cooperative pool was blocked")
        #expect(outcome.secondStarted, "the read in line started while no cooperative thread was free")

        try await first.value
        #expect(try await second.value == .integer(1), "the read's snapshot is from before the background write")
        writerPause.release()
        try await write.committed()
        try await store.close()
    }
}

/// Runs `body` on a new thread, outside Swift's cooperative pool and the main thread, and returns
/// what it returns.
private func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Blocks as many tasks as the cooperative pool has threads (one per core), each on a semaphore.
private final class CooperativePoolBlocker: Sendable {
    private let started = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let width = ProcessInfo.processInfo.activeProcessorCount

    /// Starts the blocking tasks and waits, blocking the calling thread, until each runs; returns
    /// whether they all did within 10 seconds.
    func blockEveryThread() -> Bool {
        for _ in 0 ..< width {
            Task.detached { [started, released] in
                started.signal()
                _ = released.wait(timeout: .now() + 30)
            }
        }
        return (0 ..< width).allSatisfy { _ in started.wait(timeout: .now() + 10) == .success }
    }

    func release() {
        for _ in 0 ..< width { released.signal() }
    }
}
