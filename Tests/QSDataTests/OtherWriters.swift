import Foundation
import QSData
import QSDataTodoModel
import Testing
import TestSupport

/// What the tests of other writers share: a store of to-dos (project 1 listing tasks 1–3),
/// the second-writer process, the `sqlite3` command where installed, and waiting for a change.
enum OtherWriters {
    struct TimedOut: Error {}

    /// The QSDataSecondWriter executable, built beside the test bundle.
    static let secondWriter: URL? = executable(named: "QSDataSecondWriter")

    /// The `sqlite3` command-line shell, when the machine has it.
    static let sqlite3: URL? = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
        .map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }

    private static func executable(named name: String) -> URL? {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Task 2 done makes the store's own log entries fail: a transaction setting it rolls back
    /// at its commit (after the app's SQL in it, if any, was read back).
    @MainActor
    static func refuseTheStoresEntriesOnceTaskTwoIsDone(in store: QSStore) async throws {
        try await store.execute("""
            CREATE TEMP TRIGGER refuseEntries BEFORE INSERT ON qsdata_changes
            WHEN NEW.writer IS NOT NULL AND (SELECT done FROM tasks WHERE uniqueID = 2) = 1
            BEGIN SELECT RAISE(ABORT, 'refused'); END
            """)
    }

    /// A new store holding project 1 with tasks 1, 2 and 3, all committed.
    @MainActor
    static func openStore(url: URL = Fixtures.temporaryDatabaseURL(), tasks: Int64 = 3) async throws -> (QSStore, URL) {
        let store = try await TodoModel.openStore(at: url)
        let todos = (1...tasks).map { Todo(uniqueID: $0, title: "task \($0)") }
        try await store.save(Project(uniqueID: 1, name: "Home", tasks: todos)).committed()
        return (store, url)
    }

    /// A new, empty to-do store whose model says `logChanges: false` for tasks.
    @MainActor
    static func openStoreLeavingTasksOutOfTheLog(url: URL) async throws -> QSStore {
        let plist = TodoModel.model.replacingOccurrences(
            of: "<key>table</key><string>tasks</string>", with: "<key>table</key><string>tasks</string><key>logChanges</key><false/>")
        return try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(plist.utf8), fileName: "Todos.plist"),
            schema: QSSchema(creationSQL: TodoModel.schema), types: [Project.self, Todo.self])
    }

    /// Runs `executable` with `arguments` to its end (killed after 60 s) and returns what it printed.
    @MainActor
    static func run(_ executable: URL?, _ arguments: [String]) async throws -> String {
        let process = try ChildProcess(try #require(executable as URL?), arguments)
        let deadline = ContinuousClock.now + .seconds(60)
        while process.ended == nil {
            guard ContinuousClock.now < deadline else {
                process.kill()
                throw TimedOut()
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let printed = String(decoding: process.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let complaint = String(decoding: process.errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(process.ended == .exited(status: 0), "\(complaint)")
        return printed
    }

    /// The next change on `changes` that `matches`, within 30 seconds.
    static func nextChange(
        on changes: AsyncStream<QSChange>, where matches: @escaping @Sendable (QSChange) -> Bool = { _ in true }
    ) async throws -> QSChange {
        try await withThrowingTaskGroup(of: QSChange?.self) { group in
            group.addTask {
                for await change in changes where matches(change) { return change }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                throw TimedOut()
            }
            defer { group.cancelAll() }
            guard let change = try await group.next() ?? nil else { throw TimedOut() }
            return change
        }
    }

    /// The number of entries in the file's change log.
    static func logEntryCount(at url: URL) throws -> Int64 {
        let connection = try SQLiteConnection(path: url.path)
        guard case .integer(let count) = try connection.fetchValue("SELECT count(*) FROM qsdata_changes") else { return -1 }
        return count
    }
}
