import Foundation
import QSData

/// What the server sent that this version of the app's model doesn't sync: parts of objects
/// (a property a newer version added) and whole objects (of a table it added), kept with their
/// stamps in `qsdata_sync_kept_parts` (a creation as part `+`, a deletion as `-`). When an
/// update of the app syncs them, they are merged as if they had just arrived, so nothing a newer
/// device sent is lost to a device that updates later. Each part keeps the space it came from
/// (a group's ID; NULL for the account's own).
enum KeptParts {
    static let creationSQL = """
        CREATE TABLE IF NOT EXISTS qsdata_sync_kept_parts (
            tableName TEXT NOT NULL, id NOT NULL, part TEXT NOT NULL, stamp TEXT NOT NULL, value TEXT, space TEXT,
            PRIMARY KEY (tableName, id, part)
        ) WITHOUT ROWID;
        """

    /// Keeps the parts of `record` that `keeps` selects for each of `ids`, pulled from `space`,
    /// where newer than those kept already.
    static func keep(
        _ record: SyncRecord, of ids: [SyncID], in table: String, space: String?, where keeps: (String) -> Bool, on connection: SQLiteConnection
    ) throws {
        var parts: [(name: String, stamp: SyncStamp, value: SyncValue?)] = []
        if let created = record.created, keeps(OutboxPart.creation) { parts.append((OutboxPart.creation, created, nil)) }
        if let deleted = record.deleted, keeps(OutboxPart.deletion) { parts.append((OutboxPart.deletion, deleted, nil)) }
        for (name, stamp) in record.stamps where keeps(name) { parts.append((name, stamp, record.values[name])) }
        guard !parts.isEmpty else { return }
        let write = try connection.statement("""
            INSERT INTO qsdata_sync_kept_parts (tableName, id, part, stamp, value, space) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (tableName, id, part) DO UPDATE SET stamp = excluded.stamp, value = excluded.value, space = excluded.space
            WHERE excluded.stamp > stamp
            """)
        let encoder = JSONEncoder()
        for id in ids {
            for part in parts {
                let value: SQLValue = try part.value.map { .text(String(decoding: try encoder.encode($0), as: UTF8.self)) } ?? .null
                try write.run([.text(table), id.sqlValue, .text(part.name), .text(part.stamp.text), value, space.map { .text($0) } ?? .null])
            }
        }
    }

    /// The kept parts of `table` that `wanted` selects, as one change per object, by the space
    /// they came from (nil: the account's own), and forgets them.
    static func take(from table: String, where wanted: (String) -> Bool, on connection: SQLiteConnection) throws -> [String?: [SyncChange]] {
        var records: [SyncID: SyncRecord] = [:]
        var spaces: [SyncID: String] = [:]
        let decoder = JSONDecoder()
        for row in try connection.fetchRows("SELECT id, part, stamp, value, space FROM qsdata_sync_kept_parts WHERE tableName = ?", [.text(table)]) where row.count == 5 {
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
            if case .text(let space) = row[4] { spaces[id] = space }
            try connection.statement("DELETE FROM qsdata_sync_kept_parts WHERE tableName = ? AND id = ? AND part = ?").run([.text(table), row[0], row[1]])
        }
        var changes: [String?: [SyncChange]] = [:]
        for (id, record) in records.sorted(by: { $0.key < $1.key }) {
            changes[spaces[id], default: []].append(
                SyncChange(table: table, ids: [id], created: record.created, deleted: record.deleted, values: record.values, stamps: record.stamps))
        }
        return changes
    }
}
