import Foundation
import QSData
import QSDataTodoModel
import Testing

/// Another OS process writes, through QSData, the file a store holds open: the store hears of
/// it without being asked (the file watcher), patches the instances it holds, and tells its
/// observers, with exact IDs, that another connection made the change.
@MainActor
@Suite(.serialized, .enabled(if: OtherWriters.secondWriter != nil, "the QSDataSecondWriter executable was not built"))
struct OtherProcessTests {
    @Test func aTaskRenamedInAnotherProcessReachesTheHeldInstanceUnasked() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        let changes = store.changes
        _ = try await OtherWriters.run(OtherWriters.secondWriter, ["rename", url.path, "1", "Renamed elsewhere"])

        let change = try await OtherWriters.nextChange(on: changes) { $0.origin == .otherConnection }
        #expect(change.updatedIDs(of: Todo.self) == [1])
        #expect(change.insertedIDs(of: Todo.self).isEmpty && change.deletedIDs(of: Todo.self).isEmpty)
        #expect(task.title == "Renamed elsewhere")

        // The held instance is current: fetching it again runs nothing.
        let log = try await store.recordStatements {
            let again = try await store.fetch(Todo.self, id: 1)
            #expect(again === task)
        }
        #expect(log.count == 0, "\(log)")
        try await store.close()
    }

    /// The store's own write transactions hold the file watcher quiet while they run (their
    /// appends to the write-ahead log are no news): once one ends, another process's commit is
    /// heard again, unasked.
    @Test func aCommitInAnotherProcessRightAfterTheStoresOwnLargeWriteIsHeardUnasked() async throws {
        let (store, url) = try await OtherWriters.openStore(tasks: 3_000)
        let task = try #require(try await store.fetch(Todo.self, id: 1))
        try store.update(Todo.self, where: "uniqueID > 1", set: ["title": "Renamed here"])
        try await store.flush()
        let changes = store.changes
        _ = try await OtherWriters.run(OtherWriters.secondWriter, ["rename", url.path, "1", "Renamed elsewhere"])

        let change = try await OtherWriters.nextChange(on: changes) { $0.origin == .otherConnection }
        #expect(change.updatedIDs(of: Todo.self) == [1])
        #expect(task.title == "Renamed elsewhere")
        try await store.close()
    }

    @Test func aTaskAddedInAnotherProcessReachesTheParentAndALiveQuery() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let project = try #require(try await store.fetch(Project.self, id: 1))
        let live = try await store.liveQuery(QSQuery(Todo.self, where: "done = 0", orderBy: "uniqueID"))
        #expect(live.objects.map(\.uniqueID) == [1, 2, 3])
        let changes = store.changes
        _ = try await OtherWriters.run(OtherWriters.secondWriter, ["add", url.path, "4", "Added elsewhere"])

        let change = try await OtherWriters.nextChange(on: changes) { $0.origin == .otherConnection }
        #expect(change.insertedIDs(of: Todo.self) == [4])
        #expect(change.updatedIDs(of: Project.self) == [1])
        #expect(project.tasks.map(\.uniqueID) == [1, 2, 3, 4])
        try await live.waitUntilCurrent()
        #expect(live.objects.map(\.uniqueID) == [1, 2, 3, 4])
        #expect(live.objects.last === project.tasks.last, "one instance per uniqueID")
        try await store.close()
    }

    @Test func aTaskDeletedInAnotherProcessLeavesTheCacheAndItsParent() async throws {
        let (store, url) = try await OtherWriters.openStore()
        let project = try #require(try await store.fetch(Project.self, id: 1))
        let changes = store.changes
        _ = try await OtherWriters.run(OtherWriters.secondWriter, ["delete", url.path, "2"])

        let change = try await OtherWriters.nextChange(on: changes) { $0.origin == .otherConnection }
        #expect(change.deletedIDs(of: Todo.self) == [2])
        #expect(project.tasks.map(\.uniqueID) == [1, 3])
        #expect(try store.cachedObject(of: Todo.self, id: 2) == nil)
        try await store.close()
    }

    @Test func aProjectDeletedInAnotherProcessTakesItsTasksByItsRule() async throws {
        let (store, url) = try await OtherWriters.openStore()
        _ = try await store.fetchAll(Project.self)
        let changes = store.changes
        _ = try await OtherWriters.run(OtherWriters.secondWriter, ["delete-project", url.path, "1"])

        let change = try await OtherWriters.nextChange(on: changes) { $0.origin == .otherConnection }
        #expect(change.deletedIDs(of: Project.self) == [1])
        #expect(change.deletedIDs(of: Todo.self) == [1, 2, 3])
        #expect(try store.cachedObjectCount(of: Project.self) == 0)
        #expect(try store.cachedObjectCount(of: Todo.self) == 0)
        try await store.close()
    }

    /// One bulk update of 10,000 rows in another process: one statement there, one log entry
    /// naming every row, and every held instance patched here.
    @Test func aBulkUpdateInAnotherProcessWritesOneEntryAndPatchesEveryHeldTask() async throws {
        let (store, url) = try await OtherWriters.openStore(tasks: 10_000)
        let tasks = try await store.fetchAll(Todo.self)
        let entriesBefore = try OtherWriters.logEntryCount(at: url)
        let changes = store.changes
        _ = try await OtherWriters.run(OtherWriters.secondWriter, ["finish-all", url.path])

        let change = try await OtherWriters.nextChange(on: changes) { $0.origin == .otherConnection }
        #expect(change.updatedIDs(of: Todo.self).count == 10_000)
        #expect(tasks.allSatisfy { $0.done })
        let entriesWritten = try OtherWriters.logEntryCount(at: url) - entriesBefore
        #expect(entriesWritten >= 1 && entriesWritten <= 2, "\(entriesWritten) log entries")
        try await store.close()
    }
}
