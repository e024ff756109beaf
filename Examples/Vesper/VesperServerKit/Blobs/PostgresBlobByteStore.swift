import Foundation
import Logging
import PostgresNIO

/// Attachment bytes in PostgreSQL's `blobBytes` table, so that a blob uploaded through one
/// instance downloads through any other; sealed like the files of ``BlobFileStore`` (``SealedBlob``).
struct PostgresBlobByteStore: BlobByteStore {
    let client: PostgresClient
    let cipher: TextCipher
    let logger: Logger

    func write(_ data: Data, name: String, userID: Int64) async throws {
        let sealed = try SealedBlob.seal(data, name: name, userID: userID, cipher: cipher)
        try await client.query(
            """
            INSERT INTO blobBytes (userID, name, bytes) VALUES (\(userID), \(name), \(sealed))
            ON CONFLICT (userID, name) DO UPDATE SET bytes = excluded.bytes
            """, logger: logger)
    }

    func read(name: String, userID: Int64) async throws -> Data? {
        let rows = try await client.query(
            "SELECT bytes FROM blobBytes WHERE userID = \(userID) AND name = \(name)", logger: logger)
        guard let row = try await rows.collect().first else { return nil }
        let stored = Data(try row.decode(ByteBuffer.self).readableBytesView)
        return try SealedBlob.open(stored, name: name, userID: userID, cipher: cipher)
    }

    func remove(name: String, userID: Int64) async throws {
        try await client.query("DELETE FROM blobBytes WHERE userID = \(userID) AND name = \(name)", logger: logger)
    }
}
