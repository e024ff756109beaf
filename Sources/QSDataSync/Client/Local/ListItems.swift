import QSData

/// The parts of synced lists (see ``SyncListPart``) as a replica keeps them, one row per parent,
/// relationship and child in `qsdata_sync_list_items`: whether the child is listed and its
/// position key, each with its stamp. The lookup table holds the order the app reads; these
/// rows hold what merges, and the lookup rows are rewritten from them when a merge changes a list.
enum ListItems {
    /// Adds the list parts of `parents` to their records.
    static func load(into records: inout [SQLValue: SyncRecord], _ parents: some Collection<SQLValue>, table: SyncedTable, on connection: SQLiteConnection) throws {
        guard !table.lists.isEmpty, !parents.isEmpty else { return }
        for chunk in Array(parents).chunked(by: 10_000) {
            let rows = try connection.fetchRows("""
                SELECT parentID, list, childID, listed, listedStamp, position, positionStamp FROM qsdata_sync_list_items
                WHERE tableName = ? AND parentID IN (SELECT value FROM json_each(?))
                """, [.text(table.name), IDList.json(chunk)])
            for row in rows where row.count == 7 {
                guard case .text(let list) = row[1], let child = SyncID(sqlValue: row[2]) else { continue }
                var record = records[row[0]] ?? SyncRecord()
                if case .text(let text) = row[4], let stamp = SyncStamp(text: text) {
                    let name = SyncListPart(list: list, child: child, kind: .membership).name
                    record.stamps[name] = stamp
                    record.values[name] = row[3] == .null ? .null : SyncListPart.listed
                }
                if case .text(let text) = row[6], let stamp = SyncStamp(text: text) {
                    let name = SyncListPart(list: list, child: child, kind: .position).name
                    record.stamps[name] = stamp
                    record.values[name] = SyncValue(column: row[5])
                }
                records[row[0]] = record
            }
        }
    }

    /// Writes the items of `record` that the list parts named in `parts` belong to.
    static func save(_ parts: some Sequence<SyncListPart>, of record: SyncRecord, parent: SQLValue, table: String, on connection: SQLiteConnection) throws {
        var seen: Set<SyncListPart> = []
        let write = try connection.statement("""
            INSERT OR REPLACE INTO qsdata_sync_list_items (tableName, parentID, list, childID, listed, listedStamp, position, positionStamp)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for part in parts {
            let membership = SyncListPart(list: part.list, child: part.child, kind: .membership)
            guard seen.insert(membership).inserted else { continue }
            let position = SyncListPart(list: part.list, child: part.child, kind: .position)
            let listed: SQLValue = record.values[membership.name] == SyncListPart.listed ? .integer(1) : .null
            let key: SQLValue = if case .text(let text) = record.values[position.name] { .text(text) } else { .null }
            try write.run([
                .text(table), parent, .text(part.list), part.child.sqlValue,
                listed, record.stamps[membership.name].map { .text($0.text) } ?? .null,
                key, record.stamps[position.name].map { .text($0.text) } ?? .null,
            ])
        }
    }

    /// Takes out of `record` its list parts stamped before `stamp`, and returns them: saved with
    /// ``save(_:of:parent:table:on:)``, their items then list nothing.
    static func takeParts(of record: inout SyncRecord, stampedBefore stamp: SyncStamp?) -> [SyncListPart] {
        guard let stamp else { return [] }
        var taken: [SyncListPart] = []
        for (name, partStamp) in record.stamps.sorted(by: { $0.key < $1.key }) where partStamp < stamp {
            guard let part = SyncListPart(name: name) else { continue }
            record.stamps[name] = nil
            record.values[name] = nil
            taken.append(part)
        }
        return taken
    }

    /// Forgets every item of a parent (deleted).
    static func forget(parent: SQLValue, table: String, on connection: SQLiteConnection) throws {
        try connection.statement("DELETE FROM qsdata_sync_list_items WHERE tableName = ? AND parentID = ?").run([.text(table), parent])
    }

    /// The children `record` lists in `list`, in their position keys' order, with their keys.
    static func listed(_ list: String, in record: SyncRecord) -> [(child: SyncID, key: String)] {
        var children: [(child: SyncID, key: String)] = []
        for (name, value) in record.values where value == SyncListPart.listed {
            guard let part = SyncListPart(name: name), part.list == list, part.kind == .membership else { continue }
            let position = SyncListPart(list: list, child: part.child, kind: .position).name
            let key: String = if case .text(let text) = record.values[position] { text } else { "" }
            children.append((part.child, key))
        }
        return children.sorted { SyncListPosition.precedes($0, $1) }
    }
}
