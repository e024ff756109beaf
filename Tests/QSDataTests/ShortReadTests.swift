import Dispatch
import Foundation
@testable import QSData
import Testing

/// A short read (a fetch of at most a hundred rows) runs on its caller's thread when the database
/// queue has nothing waiting or running, instead of paying two thread switches; otherwise it waits
/// on the queue behind the work handed over before it, as every read does.
@Suite struct ShortReadTests {
    @Test func idleQueueRunsWorkOnTheCallersThreadAndBusyQueueRefusesIt() async throws {
        let queue = DatabaseQueue()
        try await queue.open(path: Fixtures.temporaryDatabaseURL().path, valueChildTables: [])
        let caller = pthread_self()
        let ranOn = try queue.performIfIdle { _ in pthread_self() }
        #expect(ranOn.map { pthread_equal($0, caller) != 0 } == true)

        // Work the test holds on the queue until it says: meanwhile nothing runs at once.
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        queue.enqueue { _ in
            started.signal()
            release.wait()
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        #expect(try queue.performIfIdle { _ in 1 } == nil)
        // Work handed over while the queue is busy counts too, until it has run.
        let after = Task { try await queue.perform { _ in 2 } }
        release.signal()
        #expect(try await after.value == 2)
        // Counted finished before the wait resumes: idle again at once.
        #expect(try queue.performIfIdle { _ in 3 } == 3)

        await queue.close()
        #expect(throws: QSDataError.storeClosed) { try queue.performIfIdle { _ in 4 } }
    }

    @MainActor
    @Test func aShortFetchSeesTheSaveHandedOverBeforeIt() async throws {
        let store = try await Fixtures.openStore()
        for index in 0 ..< 2_000 {
            try store.save(Note(uniqueID: Int64(40_000 + index), text: "n\(index)"))
        }
        // The queue is busy with the saves: the fetch waits behind them.
        let fetched = try await store.fetch(Note.self, where: "uniqueID >= ?", arguments: [41_990], orderBy: "uniqueID", limit: 5)
        #expect(fetched.map(\.uniqueID) == [41_990, 41_991, 41_992, 41_993, 41_994])
        // Again once the saves have run: a fetch's statements, and the same instances.
        try await store.flush()
        let log = try await store.recordStatements {
            let again = try await store.fetch(Note.self, where: "uniqueID >= ?", arguments: [41_990], orderBy: "uniqueID", limit: 5)
            #expect(zip(again, fetched).allSatisfy { $0 === $1 })
        }
        // The notes, and the lookup rows of each of their two relationships.
        #expect(log.count == 3)
    }

    /// What the main actor changed in its table of instances reaches the queue's table before
    /// anything else runs there: a short read run at once applies it first. Here the main actor
    /// drops the entries of dead instances (counting the live ones does), and a read on this
    /// thread right after finds the queue's table without them.
    @MainActor
    @Test func aShortReadAtOnceFollowsWhatTheMainActorChangedFirst() async throws {
        let store = try await Fixtures.openStore()
        let binding = try store.registry.binding(for: Note.self)
        for index in 0 ..< 10 { try store.save(Note(uniqueID: Int64(42_000 + index), text: "n\(index)")) }
        try await store.flush()
        func knownCount() throws -> Int? {
            try store.database.readIfIdle { state in state.knownRows(of: binding).allIDs.count }
        }
        // Another thread may hand the queue work at any moment (the file watcher's wake-up after
        // a write): each round makes sure the queue is idle, then reads on this thread at once.
        var ranAtOnce: Int?
        for _ in 0 ..< 100 where ranAtOnce == nil {
            try await Waiting.within {
                while try knownCount() == nil { await Task.yield() }
            }
            _ = try await store.fetch(Note.self, where: "uniqueID >= 42000")  // made, then let go
            try await Waiting.within {
                while try knownCount() == nil { await Task.yield() }
            }
            #expect(try store.cachedObjectCount(of: Note.self) == 0)
            ranAtOnce = try knownCount()
        }
        #expect(ranAtOnce == 0)
    }
}
