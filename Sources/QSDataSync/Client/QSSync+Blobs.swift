import Foundation
import QSData

extension QSSync {
    /// Sends the parts of `blob` the server doesn't hold yet (as `group`'s bytes, or the
    /// account's own); returns how many were sent.
    func upload(_ blob: SyncBlobReference, bytes: Data, group: String?) async throws -> Int {
        var status = try await transport.blobStatus(blob, group: group)
        var sent = 0
        for index in 0..<blob.partCount where !status.complete && !status.parts.contains(index) {
            status = try await transport.uploadBlobPart(blob, index: index, bytes: blob.part(index, of: bytes), group: group)
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

    /// Downloads each blob of `waiting` once (from each space that names it), checks its
    /// digest, and stores it in every column still waiting for it.
    private func download(_ waiting: [BlobColumns.Waiting]) async throws -> Int {
        var downloaded = 0
        let bySpace = Dictionary(grouping: waiting) { BlobInSpace(blob: $0.blob, space: $0.space) }
        for (key, entries) in bySpace.sorted(by: { ($0.key.blob.sha256, $0.key.space ?? "") < ($1.key.blob.sha256, $1.key.space ?? "") }) {
            let blob = key.blob
            let bytes = try await transport.downloadBlob(blob, group: key.space)
            guard SyncBlobReference(of: bytes) == blob else { throw QSSyncError.blobMismatch(blob) }
            let capture = self.capture
            _ = try await Self.syncTransaction("sync: store a downloaded blob", on: store) { connection in
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

/// A blob as one space (a group's, or the account's own) holds it.
private struct BlobInSpace: Hashable {
    let blob: SyncBlobReference
    let space: String?
}
