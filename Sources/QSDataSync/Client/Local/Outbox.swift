import Foundation
import QSData

/// Reads what waits in the outbox into a push, and takes out what the server acknowledged.
struct Outbox: Sendable {
    let schema: SyncedSchema

    /// One part of one object sent in a push, at the stamp it was queued with.
    struct SentPart: Sendable {
        let table: String
        let id: SQLValue
        let part: String
        let stamp: String
    }

    /// The next push of `space`'s objects (a group's ID; nil for the account's own): at most
    /// `limit` waiting parts, with their objects' current values, and its number; parts sent for
    /// the first time are marked with it. Empty when nothing waits.
    func nextPush(limit: Int, space: String?, on connection: SQLiteConnection) throws -> (changes: [SyncChange], sent: [SentPart], number: Int64, uploads: [SyncBlobReference: Data]) {
        let (inSpace, spaceArgument) = spaceCondition(space)
        // What an earlier push sent goes first, so that every push sends again everything sent
        // before and not acknowledged. A part first sent in push N then arrived exactly when the
        // server has taken a push numbered N or more (see ``acknowledge(through:on:)``).
        // (Two reads in the key's order, each by an index: one ordering the whole queue by
        // whether it was sent would sort 100,000 rows for every push.)
        let resent = try connection.fetchRows(
            "SELECT tableName, id, part, stamp FROM qsdata_sync_outbox AS o WHERE sentIn IS NOT NULL\(inSpace) ORDER BY tableName, id, part LIMIT ?",
            spaceArgument + [.integer(Int64(limit))])
        let fresh = try connection.fetchRows(
            "SELECT tableName, id, part, stamp FROM qsdata_sync_outbox AS o WHERE sentIn IS NULL\(inSpace) ORDER BY tableName, id, part LIMIT ?",
            spaceArgument + [.integer(Int64(limit - resent.count))])
        let rows = resent + fresh
        var sent: [SentPart] = []
        var partsByTable: [String: [(id: SQLValue, parts: [String])]] = [:]
        for row in rows where row.count == 4 {
            guard case .text(let table) = row[0], case .text(let part) = row[2], case .text(let stamp) = row[3] else { continue }
            sent.append(SentPart(table: table, id: row[1], part: part, stamp: stamp))
            // Within each of the two groups, the rows come ordered by table and ID: an object's parts are together.
            Self.add(part, of: row[1], to: &partsByTable[table, default: []])
        }
        var changes: [SyncChange] = []
        var uploads: [SyncBlobReference: Data] = [:]
        for (tableName, objects) in partsByTable.sorted(by: { $0.key < $1.key }) {
            // A table that no longer syncs (the model changed): its waiting parts are dropped below.
            guard let table = schema.tables[tableName] else { continue }
            let ids = objects.map(\.id)
            let records = try LocalRecord.load(ids, table: table, on: connection)
            var rows = try TableRows.read(ids, of: table, on: connection)
            var outgoing: [(id: SyncID, record: SyncRecord)] = []
            for (id, parts) in objects {
                for property in table.blobs.keys where rows[id] != nil && (parts.contains(property) || parts.contains(OutboxPart.creation)) {
                    let value = rows[id]?[property]
                    rows[id]?[property] = try BlobColumns.outgoing(value, of: property, id: id, in: tableName, uploads: &uploads, on: connection)
                }
                guard let syncID = SyncID(sqlValue: id), let held = records[id],
                      let record = Self.outgoing(parts, of: held, row: rows[id], table: table)
                else { continue }
                outgoing.append((syncID, record))
            }
            changes += SyncChange.grouping(outgoing, table: tableName)
        }
        var number: Int64 = 1
        if case .integer(let last) = try SyncStateTables.value(.push, on: connection) { number = last + 1 }
        try SyncStateTables.set(.push, to: .integer(number), on: connection)
        // The same rows, in one statement (nothing else writes within this transaction).
        try connection.execute(
            "UPDATE qsdata_sync_outbox SET sentIn = ? WHERE sentIn IS NULL AND (tableName, id, part) IN "
                + "(SELECT tableName, id, part FROM qsdata_sync_outbox AS o WHERE sentIn IS NULL\(inSpace) ORDER BY tableName, id, part LIMIT ?)",
            [.integer(number)] + spaceArgument + [.integer(Int64(fresh.count))])
        return (changes, sent, number, uploads)
    }

    /// The condition (after another) that keeps an outbox row `o` to `space`'s objects, and its
    /// argument; nothing when the model shares nothing in groups (every object is the account's).
    private func spaceCondition(_ space: String?) -> (sql: String, arguments: [SQLValue]) {
        Self.spaceCondition(space, sharesGroups: schema.sharesGroups)
    }

    static func spaceCondition(_ space: String?, sharesGroups: Bool) -> (sql: String, arguments: [SQLValue]) {
        guard sharesGroups else { return ("", []) }
        return (" AND " + GroupSpaces.outboxRowInSpace, [space.map { .text($0) } ?? .null])
    }

    /// Forgets that push `number` sent anything: the server refused it (it answered with an
    /// error, so took nothing).
    static func refused(number: Int64, on connection: SQLiteConnection) throws {
        try connection.execute("UPDATE qsdata_sync_outbox SET sentIn = NULL WHERE sentIn = ?", [.integer(number)])
    }

    /// Takes out what pushes of `space` up to number `last` sent and nothing queued again
    /// since: the server took those pushes, whether or not their answers arrived.
    func acknowledge(through last: Int64, space: String?, on connection: SQLiteConnection) throws {
        let (inSpace, spaceArgument) = spaceCondition(space)
        try connection.execute("DELETE FROM qsdata_sync_outbox AS o WHERE sentIn <= ?\(inSpace)", [.integer(last)] + spaceArgument)
    }

    private static func add(_ part: String, of id: SQLValue, to objects: inout [(id: SQLValue, parts: [String])]) {
        if let last = objects.indices.last, objects[last].id == id {
            objects[last].parts.append(part)
        } else {
            objects.append((id, [part]))
        }
    }

    /// What to send of one object: its deletion, its whole self when created, or the parts that changed.
    private static func outgoing(_ parts: [String], of held: SyncRecord, row: [String: SyncValue]?, table: SyncedTable) -> SyncRecord? {
        if parts.contains(OutboxPart.deletion) {
            return held.deleted.map { SyncRecord(deleted: $0) }
        }
        // A row gone without a deletion queued was deleted by a writer whose entry is still to be read.
        guard let row else { return nil }
        // A creation sends every column and every list part known; otherwise the parts queued.
        let names = parts.contains(OutboxPart.creation)
            ? table.columnNames + held.stamps.keys.filter { SyncListPart(name: $0) != nil && table.syncs($0) }.sorted()
            : parts.filter(table.syncs)
        var record = SyncRecord(created: parts.contains(OutboxPart.creation) ? held.created : nil)
        for name in names {
            let value = table.column(named: name) != nil ? row[name] : held.values[name]
            guard let stamp = held.stamp(of: name), let value else { continue }
            record.stamps[name] = stamp
            record.values[name] = value
        }
        return record.created == nil && record.stamps.isEmpty ? nil : record
    }

    /// Takes out the parts the server took, unless they were queued again since with a newer stamp.
    func acknowledge(_ sent: [SentPart], on connection: SQLiteConnection) throws {
        let remove = try connection.statement("DELETE FROM qsdata_sync_outbox WHERE tableName = ? AND id = ? AND part = ? AND stamp = ?")
        for part in sent {
            try remove.run([.text(part.table), part.id, .text(part.part), .text(part.stamp)])
        }
    }

    /// Queues `parts` of an object to be pushed, stamped `stamp` (a merge's own edit: a
    /// duplicate's deletion, a list that named it).
    static func queue(_ parts: [String], of id: SQLValue, in table: String, at stamp: SyncStamp, on connection: SQLiteConnection) throws {
        let queue = try connection.statement("INSERT OR REPLACE INTO qsdata_sync_outbox (tableName, id, part, stamp) VALUES (?, ?, ?, ?)")
        for part in parts { try queue.run([.text(table), id, .text(part), .text(stamp.text)]) }
    }

    /// Whether `part` of an object waits to be pushed.
    static func waits(_ part: String, of id: SQLValue, in table: String, on connection: SQLiteConnection) throws -> Bool {
        try connection.fetchValue(
            "SELECT 1 FROM qsdata_sync_outbox WHERE tableName = ? AND id = ? AND part = ?", [.text(table), id, .text(part)]) != nil
    }

    /// Whether a push of `space` whose answer never came sent some of what waits.
    func hasUnansweredParts(space: String?, in store: QSStore) async throws -> Bool {
        let (inSpace, spaceArgument) = spaceCondition(space)
        return try await store.read { connection in
            try connection.fetchValue("SELECT 1 FROM qsdata_sync_outbox AS o WHERE sentIn IS NOT NULL\(inSpace) LIMIT 1", spaceArgument) != nil
        }
    }

    /// How many parts wait to be pushed.
    static func count(on connection: SQLiteConnection) throws -> Int {
        if case .integer(let count) = try connection.fetchValue("SELECT count(*) FROM qsdata_sync_outbox") { return Int(count) }
        return 0
    }
}

/// Reads synced objects' current values from their rows and lookup tables.
enum TableRows {
    /// Each row's synced columns by name, by uniqueID; a missing row is left out.
    static func read(_ ids: [SQLValue], of table: SyncedTable, on connection: SQLiteConnection) throws -> [SQLValue: [String: SyncValue]] {
        var rows: [SQLValue: [String: SyncValue]] = [:]
        let columns = table.columns.map(\.name)
        let select = "SELECT " + ([quoted("uniqueID")] + columns.map(quoted)).joined(separator: ", ")
            + " FROM \(quoted(table.name)) WHERE \(quoted("uniqueID")) IN (SELECT value FROM json_each(?))"
        for chunk in ids.chunked(by: 10_000) {
            for row in try connection.fetchRows(select, [IDList.json(chunk)]) where row.count == columns.count + 1 {
                var values: [String: SyncValue] = [:]
                for (offset, name) in columns.enumerated() { values[name] = SyncValue(column: row[offset + 1]) }
                rows[row[0]] = values
            }
        }
        return rows
    }

    /// Those of `ids` that have a row in `table`.
    static func existing(_ ids: [SyncID], in table: String, on connection: SQLiteConnection) throws -> Set<SyncID> {
        var held: Set<SyncID> = []
        for chunk in ids.chunked(by: 10_000) {
            let rows = try connection.fetchRows(
                "SELECT \(quoted("uniqueID")) FROM \(quoted(table)) WHERE \(quoted("uniqueID")) IN (SELECT value FROM json_each(?))",
                [IDList.json(chunk.map(\.sqlValue))])
            for row in rows { if let id = row.first.flatMap(SyncID.init(sqlValue:)) { held.insert(id) } }
        }
        return held
    }

    /// The children each of `ids` lists in `relationship`, in the lookup table's order.
    static func children(of ids: [SQLValue], in relationship: QSRelationshipDescription, on connection: SQLiteConnection) throws -> [SQLValue: [SyncID]] {
        var children: [SQLValue: [SyncID]] = [:]
        let sql = "SELECT \(quoted(relationship.parentIDColumn)), \(quoted(relationship.childIDColumn)) FROM \(quoted(relationship.table)) "
            + "WHERE \(quoted(relationship.parentIDColumn)) IN (SELECT value FROM json_each(?)) "
            + "ORDER BY \(quoted(relationship.parentIDColumn)), \(quoted(relationship.indexColumn))"
        for chunk in ids.chunked(by: 10_000) {
            for row in try connection.fetchRows(sql, [IDList.json(chunk)]) where row.count == 2 {
                if let child = SyncID(sqlValue: row[1]) { children[row[0], default: []].append(child) }
            }
        }
        return children
    }
}
