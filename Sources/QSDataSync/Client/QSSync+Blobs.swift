import Foundation
import QSData

extension QSSync {
    /// Sends the parts of `blob` the server doesn't hold yet; returns how many were sent.
    func upload(_ blob: SyncBlobReference, bytes: Data) async throws -> Int {
        var status = try await transport.blobStatus(blob)
        var sent = 0
        for index in 0..<blob.partCount where !status.complete && !status.parts.contains(index) {
            status = try await transport.uploadBlobPart(blob, index: index, bytes: blob.part(index, of: bytes))
            sent += 1
        }
        return sent
    }

    /// Downloads the bytes of every eager blob waiting for them; returns how many blobs came.
    func downloadEagerBlobs() async throws -> Int {
        let schema = applier.schema
        let waiting = try await store.read { connection in
            try BlobColumns.waiting(on: connection).filter { schema.tables[$0.table]?.blobs[$0.property] == .eager }
        }
        return try await download(waiting)
    }

    /// Downloads the bytes of the blob `property` of the object `id` of `table` names, when
    /// they are not here yet (a lazy blob's, or an eager one's whose download failed), and
    /// stores them in its column. Returns whether bytes were downloaded.
    ///
    /// - Throws: ``QSSyncError/blobMismatch(_:)`` when the bytes that came are not the ones named.
    @discardableResult
    public func loadBlob(_ property: String, of id: SyncID, in table: String) async throws -> Bool {
        let waiting = try await store.read { connection in
            try BlobColumns.waiting(in: table, id: id.sqlValue, property: property, on: connection)
        }
        return try await download(waiting) > 0
    }

    /// How many blob columns wait for their bytes.
    public func waitingBlobCount() async throws -> Int {
        try await store.read { connection in try BlobColumns.waiting(on: connection).count }
    }

    /// Downloads each blob of `waiting` once, checks its digest, and stores it in every column
    /// still waiting for it.
    private func download(_ waiting: [BlobColumns.Waiting]) async throws -> Int {
        var downloaded = 0
        for (blob, entries) in Dictionary(grouping: waiting, by: \.blob).sorted(by: { $0.key.sha256 < $1.key.sha256 }) {
            let bytes = try await transport.downloadBlob(blob)
            guard SyncBlobReference(of: bytes) == blob else { throw QSSyncError.blobMismatch(blob) }
            let capture = self.capture
            _ = try await store.writeInOwnTransaction("sync: store a downloaded blob", source: .sync) { connection in
                try capture.capture(on: connection)
                let stored = try BlobColumns.store(bytes, for: entries, on: connection)
                try capture.skipToEnd(on: connection)
                return stored
            }
            downloaded += 1
        }
        return downloaded
    }
}
