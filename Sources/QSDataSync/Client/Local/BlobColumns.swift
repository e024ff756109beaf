import Foundation
import QSData

/// The columns a model syncs as blobs (its `syncedBlobs`): their values travel as references
/// to the bytes' SHA-256, and the bytes by the protocol's blob calls. A reference pulled whose
/// bytes this replica doesn't hold waits in `qsdata_sync_blob_downloads`, the column NULL,
/// until they are downloaded (at once for an eager blob, when the app asks for a lazy one).
enum BlobColumns {
    static let creationSQL = """
        CREATE TABLE IF NOT EXISTS qsdata_sync_blob_downloads (
            tableName TEXT NOT NULL, id NOT NULL, property TEXT NOT NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL,
            PRIMARY KEY (tableName, id, property)
        ) WITHOUT ROWID;
        """

    /// One blob column of one object waiting for its bytes.
    struct Waiting: Sendable, Hashable {
        let table: String
        let id: SQLValue
        let property: String
        let blob: SyncBlobReference
        /// The group whose bytes these are (nil: the account's own), as the object's.
        var space: String?
    }

    /// What a blob column's `value` travels as: a reference to its bytes (kept in `uploads`),
    /// or the reference still waiting for its bytes here when the column is NULL for that.
    static func outgoing(
        _ value: SyncValue?, of property: String, id: SQLValue, in table: String, uploads: inout [SyncBlobReference: Data], on connection: SQLiteConnection
    ) throws -> SyncValue? {
        switch value {
        case .blob(let bytes)?:
            let blob = SyncBlobReference(of: bytes)
            uploads[blob] = bytes
            return .blobReference(blob)
        case .null?:
            return try waiting(in: table, id: id, property: property, on: connection).first.map { .blobReference($0.blob) } ?? .null
        default:
            return value
        }
    }

    /// Notes that `property` of the object now names `blob`, whose bytes are to be downloaded.
    static func await(_ blob: SyncBlobReference, for property: String, of id: SQLValue, in table: String, on connection: SQLiteConnection) throws {
        try connection.statement(
            "INSERT OR REPLACE INTO qsdata_sync_blob_downloads (tableName, id, property, sha256, size) VALUES (?, ?, ?, ?, ?)"
        ).run([.text(table), id, .text(property), .text(blob.sha256), .integer(blob.size)])
    }

    /// Forgets what the object's blob columns wait for (all of them, or `property`'s).
    static func forget(_ table: String, id: SQLValue, property: String? = nil, on connection: SQLiteConnection) throws {
        if let property {
            try connection.statement("DELETE FROM qsdata_sync_blob_downloads WHERE tableName = ? AND id = ? AND property = ?")
                .run([.text(table), id, .text(property)])
        } else {
            try connection.statement("DELETE FROM qsdata_sync_blob_downloads WHERE tableName = ? AND id = ?").run([.text(table), id])
        }
    }

    /// Every blob column waiting for its bytes, or those of `table` (and `id`, `property`).
    static func waiting(in table: String? = nil, id: SQLValue? = nil, property: String? = nil, on connection: SQLiteConnection) throws -> [Waiting] {
        var conditions: [String] = [], arguments: [SQLValue] = []
        if let table { conditions.append("d.tableName = ?"); arguments.append(.text(table)) }
        if let id { conditions.append("d.id = ?"); arguments.append(id) }
        if let property { conditions.append("d.property = ?"); arguments.append(.text(property)) }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try connection.fetchRows(
            "SELECT d.tableName, d.id, d.property, d.sha256, d.size, r.space FROM qsdata_sync_blob_downloads AS d "
                + "LEFT JOIN qsdata_sync_records AS r ON r.tableName = d.tableName AND r.id = d.id"
                + "\(filter) ORDER BY d.tableName, d.id, d.property", arguments
        ).compactMap { row -> Waiting? in
            guard row.count == 6, case .text(let rowTable) = row[0], case .text(let rowProperty) = row[2],
                  case .text(let hash) = row[3], case .integer(let size) = row[4], let blob = SyncBlobReference(sha256: hash, size: size)
            else { return nil }
            var space: String?
            if case .text(let group) = row[5] { space = group }
            return Waiting(table: rowTable, id: row[1], property: rowProperty, blob: blob, space: space)
        }
    }

    /// Writes `bytes` into the columns of `waiting` that still wait for that blob; returns how many.
    static func store(_ bytes: Data, for waiting: [Waiting], on connection: SQLiteConnection) throws -> Int {
        var stored = 0
        for entry in waiting {
            let still = try connection.fetchValue(
                "SELECT sha256 FROM qsdata_sync_blob_downloads WHERE tableName = ? AND id = ? AND property = ?",
                [.text(entry.table), entry.id, .text(entry.property)])
            guard still == .text(entry.blob.sha256) else { continue }
            try connection.statement("UPDATE \(quoted(entry.table)) SET \(quoted(entry.property)) = ? WHERE \(quoted("uniqueID")) = ?")
                .run([.blob(bytes), entry.id])
            try forget(entry.table, id: entry.id, property: entry.property, on: connection)
            stored += 1
        }
        return stored
    }
}
