import Foundation
import QSData
import Testing

/// What the model's generation keys give a generated type, through a real store: a lazy
/// relationship read as `QSRelated` (Label's tasks), a Swift name other than the model's
/// (`Task` declared as `LibraryTask`) and the schema's defaults as default arguments.
@MainActor
@Suite struct LazyRenamedAndDefaultedTests {
    private let tasks = [
        LibraryTask(uniqueID: 3, title: "Reshelve returns", priority: 2),
        LibraryTask(uniqueID: 1, title: "Mend the atlas", status: "waiting", done: true, due: LibraryStore.date),
        LibraryTask(uniqueID: 2, title: "Dust the top shelf", effort: 0.25),
    ]

    @Test func aCachedLabelHoldsItsLazyTasksAsIDsUntilTheyAreFetched() async throws {
        let url = LibraryStore.temporaryDatabaseURL()
        let writer = try await LibraryStore.open(at: url)
        // Saving the label saves the tasks it holds, and their order.
        try writer.save(Label(uniqueID: "urgent", name: "Urgent", tasks: QSRelated(tasks)))
        try await writer.close()

        let store = try await LibraryStore.open(at: url)
        var label: Label?
        let cached = try await store.recordStatements { label = try await store.fetch(Label.self, id: "urgent") }
        #expect(cached.count == 0, "\(cached)")
        let tasksOfLabel = try #require(label?.tasks)
        #expect(!tasksOfLabel.isLoaded)
        #expect(tasksOfLabel.ids == [3, 1, 2])

        var fetched: [LibraryTask] = []
        let children = try await store.recordStatements { fetched = try await store.fetchChildren(tasksOfLabel) }
        #expect(children.count == 1, "\(children)")
        #expect(fetched == tasks)
    }

    @Test func aRenamedTypeIsKnownToTheStoreByItsModelName() async throws {
        #expect(LibraryTask.modelName == "Task")
        let store = try await LibraryStore.open()
        try store.save(tasks)
        #expect(try await store.fetchAll(LibraryTask.self, orderBy: "uniqueID").map(\.uniqueID) == [1, 2, 3])
        // Swift's own Task is still the one the module sees.
        let title = await Task.detached { [tasks] in tasks[0].title }.value
        #expect(title == "Reshelve returns")
    }

    @Test func leftOutArgumentsSaveWhatTheSchemaDefaultsTo() async throws {
        let store = try await LibraryStore.open()
        try store.save(LibraryTask(uniqueID: 1, title: "Sort the donations"))
        try await store.execute("INSERT INTO tasks (uniqueID, title) VALUES (2, 'Sort the donations')")
        let fetched = try await store.fetchAll(LibraryTask.self, orderBy: "uniqueID")
        let expected = LibraryTask(
            uniqueID: 2, title: "Sort the donations", priority: 0, status: "to do", done: false, due: nil, effort: 1.5)
        #expect(fetched == [LibraryTask(uniqueID: 1, title: "Sort the donations"), expected])
    }
}
