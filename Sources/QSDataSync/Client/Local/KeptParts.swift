import Foundation
import QSData

/// What the server sent that this version of the app's model doesn't sync: parts of objects
/// (a property a newer version added) and whole objects (of a table it added), kept with their
/// stamps in `qsdata_sync_kept_parts` (a creation as part `+`, a deletion as `-`). When an
/// update of the app syncs them, they are merged as if they had just arrived, so nothing a newer
/// device sent is lost to a device that updates later.
enum KeptParts {
    static let creationSQL = """
        CREATE TABLE IF NOT EXISTS qsdata_sync_kept_parts (
            tableName TEXT NOT NULL, id NOT NULL, part TEXT NOT NULL, stamp TEXT NOT NULL, value TEXT,
            PRIMARY KEY (tableName, id, part)
        ) WITHOUT ROWID;
        """

    /// Keeps the parts of `record` that `keeps` selects for each of `ids`, where newer than
    /// those kept already.
    static func keep(_ record: SyncRecord, of ids: [SyncID], in table: String, where keeps: (String) -> Bool, on connection: SQLiteConnection) throws {
        var parts: [(name: String, stamp: SyncStamp, value: SyncValue?)] = []
        if let created = record.created, keeps(OutboxPart.creation) { parts.append((OutboxPart.creation, created, nil)) }
        if let deleted = record.deleted, keeps(OutboxPart.deletion) { parts.append((OutboxPart.deletion, deleted, nil)) }
        for (name, stamp) in record.stamps where keeps(name) { parts.append((name, stamp, record.values[name])) }
        guard !parts.isEmpty else { return }
        let write = try connection.statement("""
            INSERT INTO qsdata_sync_kept_parts (tableName, id, part, stamp, value) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (tableName, id, part) DO UPDATE SET stamp = excluded.stamp, value = excluded.value WHERE excluded.stamp > stamp
            """)
        let encoder = JSONEncoder()
        for id in ids {
            for part in parts {
                let value: SQLValue = try part.value.map { .text(String(decoding: try encoder.encode($0), as: UTF8.self)) } ?? .null
                try write.run([.text(table), id.sqlValue, .text(part.name), .text(part.stamp.text), value])
            }
        }
    }

    /// The kept parts of `table` that `wanted` selects, as one change per object, and forgets them.
    static func take(from table: String, where wanted: (String) -> Bool, on connection: SQLiteConnection) throws -> [SyncChange] {
        var records: [SyncID: SyncRecord] = [:]
        let decoder = JSONDecoder()
        for row in try connection.fetchRows("SELECT id, part, stamp, value FROM qsdata_sync_kept_parts WHERE tableName = ?", [.text(table)]) where row.count == 4 {
            guard let id = SyncID(sqlValue: row[0]), case .text(let part) = row[1], wanted(part),
                  case .text(let stampText) = row[2], let stamp = SyncStamp(text: stampText)
            else { continue }
            var record = records[id] ?? SyncRecord()
            switch part {
            case OutboxPart.creation: record.created = stamp
            case OutboxPart.deletion: record.deleted = stamp
            default:
                guard case .text(let json) = row[3], let value = try? decoder.decode(SyncValue.self, from: Data(json.utf8)) else { continue }
                record.stamps[part] = stamp
                record.values[part] = value
            }
            records[id] = record
            try connection.statement("DELETE FROM qsdata_sync_kept_parts WHERE tableName = ? AND id = ? AND part = ?").run([.text(table), row[0], row[1]])
        }
        return records.sorted { $0.key < $1.key }.map { id, record in
            SyncChange(table: table, ids: [id], created: record.created, deleted: record.deleted, values: record.values, stamps: record.stamps)
        }
    }
}
