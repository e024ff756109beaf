import CSQLite
import Foundation

/// The store's side of the change log (see ``ChangeLogTables``): its place in the log, the
/// entries it writes for its own transactions, and the commits of other connections it has not
/// read yet.
///
/// Other connections' commits are noticed with `PRAGMA data_version`, which moves only when
/// another connection commits; the entries after the store's position then say what changed.
///
/// Part of the ``QueueState``: touched only on the database queue.
final class ChangeLog {
    /// Names this store's entries and its row in `qsdata_change_readers`.
    let readerID: String
    /// The logged tables, each with the model types stored in it.
    let typesByTable: [String: [String]]
    /// The table of each logged model type.
    private let tableByType: [String: String]
    let triggers: FileTriggerSwitch
    /// Whether the app's own SQL ran in the write transaction now open: its entries are read
    /// before the store's own are written.
    var appSQLRan = false
    /// The last entry read or written.
    private(set) var position: Int64 = 0
    private var dataVersion: SQLValue?
    /// The position after the store's own entries, taken once their transaction commits.
    private var positionAfterCommit: Int64?
    /// Whether the store read other writers' entries since it last recorded its position.
    private var hasReadSinceRecorded = false
    /// The store's own transactions that wrote entries.
    private var transactionsLogged = 0
    /// Every so many of its own logged transactions, a store records its position in
    /// `qsdata_change_readers` and removes the entries every store has read.
    static let transactionsPerPrune = 64
    /// How long a store's recorded position holds back pruning: a store not heard of for longer
    /// (it crashed, or has been suspended) reads the whole database afresh when it comes back.
    static let retention: TimeInterval = 24 * 60 * 60

    /// The model, whose tables the log's triggers follow.
    private let model: QSDataModel

    init(model: QSDataModel, typesByTable: [String: [String]]) {
        self.model = model
        self.typesByTable = typesByTable
        var tableByType: [String: String] = [:]
        for (table, types) in typesByTable {
            for type in types { tableByType[type] = table }
        }
        self.tableByType = tableByType
        let readerID = UUID().uuidString
        self.readerID = readerID
        triggers = FileTriggerSwitch { connection in
            try ChangeLogTables.storeTriggers(for: model, writer: readerID, on: connection)
        }
    }

    /// Starts at the end of the log: what the store will read from the file is already current.
    /// Records the store's position unless the file is read-only.
    func start(on connection: SQLiteConnection) throws {
        // The version first: a commit between the two reads then only makes the store look once
        // for entries it has passed, where read after the position it would go unheard.
        dataVersion = try connection.fetchValue("PRAGMA data_version")
        // The last number given, not the last entry left: a log every store had read is emptied,
        // and a position before its numbers would take the next entry for one after a gap.
        position = try lastSeqGiven(on: connection) ?? 0
        try triggers.switchOff(on: connection)
        guard !connection.isReadOnly else { return }
        do {
            try recordPosition(on: connection)
        } catch let error as SQLiteError where error.code == SQLITE_READONLY {
            // A file the store may only read (its folder is read-only): no position recorded,
            // so pruning won't wait for this store, which then reads everything afresh if it
            // misses entries.
        }
    }

    /// Runs `body`, a change of the schema by the app's own SQL (`ALTER TABLE`, `DROP …`), without
    /// the log's triggers, which name the columns it may drop or rename; then makes them again
    /// for the tables as they are now.
    func withoutTriggers<Result>(on connection: SQLiteConnection, _ body: () throws -> Result) throws -> Result {
        try ChangeLogTables.dropTriggers(on: connection)
        let result: Result
        do {
            result = try body()
        } catch {
            try ChangeLogTables.install(try ChangeLogTables.plan(for: model, on: connection).tables, on: connection)
            throw error
        }
        try ChangeLogTables.install(try ChangeLogTables.plan(for: model, on: connection).tables, on: connection)
        return result
    }

    /// Whether SQL the app runs changes the schema, so must run without the log's triggers.
    static func changesSchema(_ sql: String) -> Bool {
        let head = sql.drop { $0.isWhitespace }.prefix(6).uppercased()
        return head.hasPrefix("ALTER") || head.hasPrefix("DROP")
    }

    /// Whether another connection committed since the store last looked. Costs one
    /// `PRAGMA data_version`, which the statement log lists but does not count.
    func hasOutsideCommits(on connection: SQLiteConnection) throws -> Bool {
        let version = try connection.fetchValue("PRAGMA data_version")
        defer { dataVersion = version }
        return version != dataVersion
    }

    /// The entries other writers added after the store's position, and the store's own skipped;
    /// moves the position past all of them. `missed` is true when entries the store had not
    /// read were removed (it was away longer than ``retention``): the caller must then treat
    /// everything as changed.
    func readNewEntries(on connection: SQLiteConnection) throws -> (entries: [ChangeLogEntry], missed: Bool) {
        var entries = try fetchEntries(after: position, on: connection)
        var missed = entries.first.map { $0.seq > position + 1 } ?? false
        if entries.isEmpty, let lastSeq = try lastSeqGiven(on: connection), lastSeq > position {
            // Outside a transaction the two reads see the file at different moments: entries
            // committed between them are read now. None left means they were removed unread.
            entries = try fetchEntries(after: position, on: connection)
            missed = entries.first.map { $0.seq > position + 1 } ?? true
            if entries.isEmpty { position = lastSeq }
        }
        if let last = entries.last {
            position = last.seq
            hasReadSinceRecorded = true
        }
        return (entries.filter { $0.writer != readerID }, missed)
    }

    private func fetchEntries(after position: Int64, on connection: SQLiteConnection) throws -> [ChangeLogEntry] {
        ChangeLogEntry.entries(fromRows: try connection.fetchRows(ChangeLogEntry.selectSQL, [.integer(position)]))
    }

    /// The highest `seq` the log ever gave, removed or not.
    private func lastSeqGiven(on connection: SQLiteConnection) throws -> Int64? {
        guard case .integer(let lastSeq) = try connection.fetchValue("SELECT seq FROM sqlite_sequence WHERE name = 'qsdata_changes'") else { return nil }
        return lastSeq
    }

    /// Writes the entries of the store's own committed changes, inside their transaction: one
    /// per table and kind, naming every row. Call once any outside entries were read, so that
    /// the store's position stays just before its own entries.
    func writeEntries(for changes: [QSChange], on connection: SQLiteConnection) throws {
        // An ID listed twice (saved twice in one transaction) is written twice: readers take
        // each row once however often it is named, and checking here would cost more than
        // the entry's bytes.
        // The synced tables' rows were logged by the store's TEMP triggers as they were written.
        let loggedAlready = triggers.tablesLoggedByStoreTriggers
        // A batch of many small saves has as many changes as saves, nearly all of one type: the
        // last type's table and each table's lists are found without hashing a name each time.
        var lists: [(table: String, kind: ChangeLogEntry.Kind, ids: [QSAnyID])] = []
        var lastType: (name: String, table: String?)?
        func loggedTable(of typeName: String) -> String? {
            if let lastType, lastType.name == typeName { return lastType.table }
            let table = tableByType[typeName].flatMap { loggedAlready.contains($0) ? nil : $0 }
            lastType = (typeName, table)
            return table
        }
        func add(_ ids: [QSAnyID], _ kind: ChangeLogEntry.Kind, of table: String) {
            guard !ids.isEmpty else { return }
            if let index = lists.lastIndex(where: { $0.kind == kind && $0.table == table }) {
                lists[index].ids.append(contentsOf: ids)
            } else {
                lists.append((table, kind, ids))
            }
        }
        for change in changes {
            // Types stored in one table report the same rows: each table is taken once a change.
            var tablesTaken: [String] = []
            for (typeName, ids) in change.changesByType {
                guard let table = loggedTable(of: typeName) else { continue }
                if change.changesByType.count > 1 {
                    if tablesTaken.contains(table) { continue }
                    tablesTaken.append(table)
                }
                add(ids.insertedList, .insert, of: table)
                add(ids.updatedList, .update, of: table)
                add(ids.deletedList, .delete, of: table)
            }
        }
        guard !lists.isEmpty else { return }
        // By table, and deletes before inserts before updates within one.
        func order(_ kind: ChangeLogEntry.Kind) -> Int {
            switch kind {
            case .delete: 0
            case .insert: 1
            case .update: 2
            }
        }
        lists.sort { ($0.table, order($0.kind)) < ($1.table, order($1.kind)) }
        var values: [String] = []
        var arguments: [SQLValue] = []
        for list in lists {
            values.append("(?, ?, ?, NULL, ?)")
            arguments += [.text(list.table), .text(list.kind.rawValue), IDList.json(list.ids), .text(readerID)]
        }
        try connection.execute(
            "INSERT INTO qsdata_changes (tableName, kind, ids, columns, writer) VALUES " + values.joined(separator: ", "),
            arguments)
        let last = connection.lastInsertRowID
        positionAfterCommit = last
        // The store's position, recorded when it has read other writers' entries since it last
        // did, lets pruning go on; the pruning itself runs every so many transactions.
        let prunes = (transactionsLogged + 1) % Self.transactionsPerPrune == 0
        if hasReadSinceRecorded || prunes {
            try recordPosition(last, on: connection)
        }
        if prunes { try prune(on: connection) }
    }

    /// The transaction of ``writeEntries(for:on:)`` committed: the store has read up to its own entries.
    func didCommit() {
        guard let last = positionAfterCommit else { return }
        position = last
        positionAfterCommit = nil
        transactionsLogged += 1
        hasReadSinceRecorded = false
    }

    /// The transaction of ``writeEntries(for:on:)`` rolled back: its entries never were, nor were
    /// those its own SQL logged, read past since `position`. With `lookAgain`, the next look
    /// reads the log whether or not another connection committed since.
    func didRollBack(restoringPosition position: Int64?, lookAgain: Bool) {
        positionAfterCommit = nil
        if let position { self.position = position }
        if lookAgain { dataVersion = nil }
    }

    /// Records the store's position (or `seq`), so that pruning keeps what it has not read.
    func recordPosition(_ seq: Int64? = nil, on connection: SQLiteConnection) throws {
        try connection.execute(
            "INSERT OR REPLACE INTO qsdata_change_readers (reader, seq, seenAt) VALUES (?, ?, ?)",
            [.text(readerID), .integer(seq ?? position), .real(Date().timeIntervalSince1970)])
    }

    /// Removes the entries every store has read; a store not heard of within ``retention`` no
    /// longer holds any back.
    func prune(on connection: SQLiteConnection) throws {
        let cutoff = Date().timeIntervalSince1970 - Self.retention
        try connection.execute("DELETE FROM qsdata_change_readers WHERE seenAt < ?", [.real(cutoff)])
        try connection.execute("DELETE FROM qsdata_changes WHERE seq <= (SELECT min(seq) FROM qsdata_change_readers)")
    }

    /// The store closes: its position no longer holds back pruning.
    func stop(on connection: SQLiteConnection) throws {
        guard !connection.isReadOnly else { return }
        do {
            try connection.execute("DELETE FROM qsdata_change_readers WHERE reader = ?", [.text(readerID)])
        } catch let error as SQLiteError where error.code == SQLITE_READONLY {
            // Nothing was recorded for a store that could not write (see `start`).
        }
    }
}

extension SQLiteConnection {
    /// The rowid of the last row this connection inserted.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}
