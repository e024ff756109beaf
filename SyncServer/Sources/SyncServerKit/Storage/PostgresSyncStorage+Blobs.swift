import Foundation
import NIOCore
import PostgresNIO
import QSDataSync

/// Blobs on PostgreSQL: parts in `sync_blob_parts` while an upload is under way, then the whole
/// bytes in `sync_blobs` (see ``SyncService``'s blob calls).
extension PostgresSyncStorage {
    public func blobStatus(accountID: Int64, sha256: String) async throws -> SyncBlobStatus {
        for try await _ in try await client.query(
            "SELECT 1 FROM sync_blobs WHERE account_id = \(accountID) AND sha256 = \(sha256) AND bytes IS NOT NULL", logger: logger).decode(Int.self) {
            return SyncBlobStatus(complete: true, parts: [])
        }
        var parts: [Int] = []
        for try await part in try await client.query(
            "SELECT part FROM sync_blob_parts WHERE account_id = \(accountID) AND sha256 = \(sha256) ORDER BY part", logger: logger).decode(Int32.self) {
            parts.append(Int(part))
        }
        return SyncBlobStatus(complete: false, parts: parts)
    }

    public func storeBlobPart(accountID: Int64, sha256: String, index: Int, bytes: Data) async throws {
        let buffer = ByteBuffer(bytes: bytes)
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO sync_blobs (account_id, sha256, uploaded_at) SELECT id, \(sha256), last_sequence FROM sync_accounts WHERE id = \(accountID)
                ON CONFLICT DO NOTHING
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO sync_blob_parts (account_id, sha256, part, bytes) VALUES (\(accountID), \(sha256), \(Int32(index)), \(buffer))
                ON CONFLICT (account_id, sha256, part) DO UPDATE SET bytes = excluded.bytes
                """, logger: logger)
        }
    }

    public func blobParts(accountID: Int64, sha256: String, count: Int) async throws -> [Data]? {
        var parts: [Data] = []
        for try await bytes in try await client.query(
            "SELECT bytes FROM sync_blob_parts WHERE account_id = \(accountID) AND sha256 = \(sha256) ORDER BY part", logger: logger).decode(ByteBuffer.self) {
            parts.append(Data(bytes.readableBytesView))
        }
        return parts.count == count ? parts : nil
    }

    public func finishBlob(accountID: Int64, sha256: String, bytes: Data?) async throws {
        try await transaction { connection in
            try await connection.query("DELETE FROM sync_blob_parts WHERE account_id = \(accountID) AND sha256 = \(sha256)", logger: logger)
            if let bytes {
                let buffer = ByteBuffer(bytes: bytes)
                try await connection.query(
                    "UPDATE sync_blobs SET bytes = \(buffer) WHERE account_id = \(accountID) AND sha256 = \(sha256)", logger: logger)
            } else {
                try await connection.query("DELETE FROM sync_blobs WHERE account_id = \(accountID) AND sha256 = \(sha256)", logger: logger)
            }
        }
    }

    public func blob(accountID: Int64, sha256: String) async throws -> Data? {
        for try await bytes in try await client.query(
            "SELECT bytes FROM sync_blobs WHERE account_id = \(accountID) AND sha256 = \(sha256) AND bytes IS NOT NULL", logger: logger
        ).decode(ByteBuffer.self) {
            return Data(bytes.readableBytesView)
        }
        return nil
    }

    public func blobCount(accountID: Int64) async throws -> Int {
        for try await count in try await client.query(
            "SELECT count(*) FROM sync_blobs WHERE account_id = \(accountID) AND bytes IS NOT NULL", logger: logger).decode(Int64.self) {
            return Int(count)
        }
        return 0
    }
}
