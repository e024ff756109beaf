import QSData

/// A synced object's stamps as a replica keeps them in `qsdata_sync_records`: when it was created
/// and deleted, and the stamp of each column changed since its creation; a column stored without
/// one was set by the creation, and is given the creation's stamp when read. The values themselves
/// are the object's row. Its lists' parts, values and stamps both, are kept in ``ListItems``.
///
/// `stamps` is stored as `name=stamp` pairs joined by `;` (names are SQL identifiers, stamps
/// hex and dashes; the zero stamp, a column no creation set, as `name=` alone): cheaper to read
/// and write for 100,000 objects than JSON.
enum LocalRecord {
    static func decode(created: SQLValue, deleted: SQLValue, stamps: SQLValue, parts: [String]) -> SyncRecord {
        var record = SyncRecord()
        if case .text(let text) = created, let stamp = SyncStamp(text: text) {
            record.created = stamp
            for part in parts { record.stamps[part] = stamp }
        }
        if case .text(let text) = deleted { record.deleted = SyncStamp(text: text) }
        if case .text(let text) = stamps {
            for pair in text.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let text = pair[pair.index(after: equals)...]
                guard let stamp = text.isEmpty ? SyncStamp.zero : SyncStamp(text: String(text)) else { continue }
                record.stamps[String(pair[..<equals])] = stamp
            }
        }
        return record
    }

    /// The columns `created`, `deleted`, `stamps` of a record; stamps equal to the creation's are
    /// left out, and so are list parts (kept in ``ListItems``).
    static func encode(_ record: SyncRecord) -> [SQLValue] {
        let stamps = record.stamps
            .filter { $0.value != record.created && SyncListPart(name: $0.key) == nil }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value == .zero ? "" : $0.value.text)" }
            .joined(separator: ";")
        return [
            record.created.map { .text($0.text) } ?? .null,
            record.deleted.map { .text($0.text) } ?? .null,
            stamps.isEmpty ? .null : .text(stamps),
        ]
    }

    /// Gives every record that holds no stamp of its own for a column the model added (which
    /// would read as its creation's) the zero stamp for it: no creation merged before the model
    /// had the column named it. `added` is by table, the names the model syncs now and didn't
    /// before (`*` for a whole table, whose records are all new).
    static func markAddedColumnsNeverSet(_ added: [String: Set<String>], schema: SyncedSchema, on connection: SQLiteConnection) throws {
        guard !added.isEmpty else { return }  // as at most launches: nothing to prepare
        let update = try connection.statement("""
            UPDATE qsdata_sync_records SET stamps = CASE WHEN stamps IS NULL THEN ?2 ELSE stamps || ';' || ?2 END
            WHERE tableName = ?1 AND created IS NOT NULL AND (stamps IS NULL OR instr(';' || stamps, ';' || ?2) = 0)
            """)
        for (name, names) in added.sorted(by: { $0.key < $1.key }) where !names.contains("*") {
            guard let table = schema.tables[name] else { continue }
            for column in table.columnNames where names.contains(column) {
                try update.run([.text(name), .text("\(column)=")])
            }
        }
    }

    /// The records of `ids` in `table`, with their lists' parts, by ID; an object without one is missing.
    static func load(_ ids: [SQLValue], table: SyncedTable, on connection: SQLiteConnection) throws -> [SQLValue: SyncRecord] {
        let parts = table.columnNames
        var records: [SQLValue: SyncRecord] = [:]
        for chunk in ids.chunked(by: 10_000) {
            let rows = try connection.fetchRows(
                "SELECT id, created, deleted, stamps FROM qsdata_sync_records WHERE tableName = ? AND id IN (SELECT value FROM json_each(?))",
                [.text(table.name), IDList.json(chunk)])
            for row in rows where row.count == 4 {
                records[row[0]] = decode(created: row[1], deleted: row[2], stamps: row[3], parts: parts)
            }
        }
        try ListItems.load(into: &records, Array(records.keys), table: table, on: connection)
        return records
    }

    /// Saves the record's own row; its list parts are saved with ``ListItems/save(_:of:parent:table:on:)``,
    /// its group with ``GroupSpaces``.
    static func save(_ record: SyncRecord, id: SQLValue, table: String, on connection: SQLiteConnection) throws {
        try connection.statement("""
            INSERT INTO qsdata_sync_records (tableName, id, created, deleted, stamps) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (tableName, id) DO UPDATE SET created = excluded.created, deleted = excluded.deleted, stamps = excluded.stamps
            """).run([.text(table), id] + encode(record))
    }
}

/// A JSON array of IDs for `json_each`, made by hand (the IDs are integers and text).
enum IDList {
    static func json(_ ids: some Sequence<SQLValue>) -> SQLValue {
        var parts: [String] = []
        for id in ids {
            switch id {
            case .integer(let value): parts.append(String(value))
            case .text(let text): parts.append(SyncID.string(text).json)
            default: continue
            }
        }
        return .text("[" + parts.joined(separator: ",") + "]")
    }
}

extension Array {
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
