import CSQLite
import Foundation
@testable import QSData
import QSDataTodoModel
import Testing
import TestSupport

/// A store reads the change log outside a transaction, so another writer may commit between its
/// reads: entries committed then are read, not taken for entries removed unread.
@Suite struct ChangeLogReadTests {
    @Test func entriesCommittedBetweenTheTwoReadsAreReadAndNothingIsMissed() throws {
        let (log, connection, other) = try Self.openLog()
        // The other writer commits just as the store looks for the log's last number.
        let commitDuringTheSequenceRead = OnceBeforeStatement(containing: "sqlite_sequence") {
            try other.execute("INSERT INTO qsdata_changes (tableName, kind, ids) VALUES ('tasks', 'insert', '[4]')")
        }
        commitDuringTheSequenceRead.install(on: connection)
        defer { commitDuringTheSequenceRead.uninstall(from: connection) }

        let (entries, missed) = try log.readNewEntries(on: connection)

        #expect(commitDuringTheSequenceRead.ran)
        #expect(commitDuringTheSequenceRead.failure == nil)
        #expect(!missed)
        #expect(entries.map(\.ids) == [[QSAnyID.integer(4)]])
        #expect(entries.map(\.kind) == [.insert])
        #expect(try log.readNewEntries(on: connection).entries.isEmpty, "the position moved past the entry")
    }

    @Test func entriesRemovedBeforeTheStoreReadThemAreMissed() throws {
        let (log, connection, other) = try Self.openLog()
        try other.execute("INSERT INTO qsdata_changes (tableName, kind, ids) VALUES ('tasks', 'insert', '[4]')")
        try other.execute("DELETE FROM qsdata_changes")

        let (entries, missed) = try log.readNewEntries(on: connection)

        #expect(missed)
        #expect(entries.isEmpty)
        try other.execute("INSERT INTO qsdata_changes (tableName, kind, ids) VALUES ('tasks', 'update', '[5]')")
        let next = try log.readNewEntries(on: connection)
        #expect(!next.missed, "the position moved past what was removed")
        #expect(next.entries.map(\.ids) == [[QSAnyID.integer(5)]])
    }

    @Test func aGapBeforeTheFirstEntryLeftIsMissed() throws {
        let (log, connection, other) = try Self.openLog()
        try other.execute("INSERT INTO qsdata_changes (tableName, kind, ids) VALUES ('tasks', 'insert', '[4]')")
        try other.execute("INSERT INTO qsdata_changes (tableName, kind, ids) VALUES ('tasks', 'insert', '[5]')")
        try other.execute("DELETE FROM qsdata_changes WHERE seq = 1")

        let (entries, missed) = try log.readNewEntries(on: connection)

        #expect(missed)
        #expect(entries.map(\.ids) == [[QSAnyID.integer(5)]])
    }

    /// A log every store had read is emptied; a store opening on it starts after the numbers
    /// the log gave, so the next entry is the next, not one after a gap.
    @Test func aStoreOpeningOnAnEmptiedLogMissesNothingAfterIt() throws {
        let (log, connection, other) = try Self.openLog()
        try other.execute("INSERT INTO qsdata_changes (tableName, kind, ids) VALUES ('tasks', 'insert', '[4]'), ('tasks', 'insert', '[5]')")
        try other.execute("DELETE FROM qsdata_changes")
        try log.start(on: connection)
        try other.execute("INSERT INTO qsdata_changes (tableName, kind, ids) VALUES ('tasks', 'update', '[4]')")

        let (entries, missed) = try log.readNewEntries(on: connection)

        #expect(!missed)
        #expect(entries.map(\.ids) == [[QSAnyID.integer(4)]])
        #expect(entries.map(\.kind) == [.update])
    }

    /// A store starting at the end of the log hears of every entry it has not passed, whichever
    /// of its two reads another writer's commit comes before.
    @Test(arguments: ["PRAGMA data_version", "sqlite_sequence"])
    func anEntryCommittedAsTheStoreStartsIsPassedOrHeard(commitBefore statement: String) throws {
        let (log, connection, other) = try Self.openLog()
        let commit = OnceBeforeStatement(containing: statement) {
            try other.execute("INSERT INTO qsdata_changes (tableName, kind, ids) VALUES ('tasks', 'insert', '[4]')")
        }
        commit.install(on: connection)
        defer { commit.uninstall(from: connection) }

        try log.start(on: connection)

        #expect(commit.ran)
        #expect(commit.failure == nil)
        let heard = try log.hasOutsideCommits(on: connection)
        #expect(heard || log.position == 1, "position \(log.position), and the commit not heard")
    }

    /// A log at position 0 on a new file's connection, and a second connection to the file.
    static func openLog() throws -> (ChangeLog, SQLiteConnection, SQLiteConnection) {
        let url = TestRunFolder.url.appendingPathComponent("log-\(UUID().uuidString).sqlite")
        let connection = try SQLiteConnection(path: url.path)
        try connection.executeScript(ChangeLogTables.creationSQL)
        let model = try QSDataModel(propertyList: Data(TodoModel.model.utf8), fileName: "Todos.plist")
        let log = ChangeLog(model: model, typesByTable: ["tasks": ["Todo"]])
        return (log, connection, try SQLiteConnection(path: url.path))
    }
}

/// Runs `action` once, as the first statement whose SQL contains `text` begins on a connection
/// (SQLite's statement trace fires before the statement reads the file). The connection holds
/// it unretained: keep it until ``uninstall(from:)``.
private final class OnceBeforeStatement {
    private let text: String
    private let action: () throws -> Void
    private(set) var ran = false
    private(set) var failure: (any Error)?

    init(containing text: String, _ action: @escaping () throws -> Void) {
        self.text = text
        self.action = action
    }

    func install(on connection: SQLiteConnection) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(connection.handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement, let sql = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            let hook = Unmanaged<OnceBeforeStatement>.fromOpaque(context).takeUnretainedValue()
            hook.statementBegins(String(cString: sql))
            return 0
        }, context)
    }

    /// Takes the hook off `connection`: the connection does not keep it alive.
    func uninstall(from connection: SQLiteConnection) {
        sqlite3_trace_v2(connection.handle, 0, nil, nil)
    }

    private func statementBegins(_ sql: String) {
        guard !ran, sql.contains(text) else { return }
        ran = true
        do { try action() } catch { failure = error }
    }
}
