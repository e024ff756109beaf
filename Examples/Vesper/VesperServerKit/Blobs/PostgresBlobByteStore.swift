import Foundation
import Logging
import PostgresNIO

/// Attachment bytes in PostgreSQL's `blobBytes` table, so that a blob uploaded through one
/// instance downloads through any other.
struct PostgresBlobByteStore: BlobByteStore {
    let client: PostgresClient
    let logger: Logger

    func write(_ data: Data, name: String, userID: Int64) async throws {
        try await client.query(
            """
            INSERT INTO blobBytes (userID, name, bytes) VALUES (\(userID), \(name), \(data))
            ON CONFLICT (userID, name) DO UPDATE SET bytes = excluded.bytes
            """, logger: logger)
    }

    func read(name: String, userID: Int64) async throws -> Data? {
        let rows = try await client.query(
            "SELECT bytes FROM blobBytes WHERE userID = \(userID) AND name = \(name)", logger: logger)
        return try await rows.collect().first.map { Data(try $0.decode(ByteBuffer.self).readableBytesView) }
    }

    func remove(name: String, userID: Int64) async throws {
        try await client.query("DELETE FROM blobBytes WHERE userID = \(userID) AND name = \(name)", logger: logger)
    }
}
