import Crypto
import Foundation
import QSDataSync

/// Blobs: bytes named by their SHA-256, sent in parts of ``SyncProtocol/blobPartSize``. A part
/// arrives once; when the last arrives the parts are joined and their digest checked. A push
/// may name only whole blobs.
extension SyncService {
    public func blobStatus(_ blob: SyncBlobReference, group: String? = nil, accountID: Int64) async throws -> SyncBlobStatus {
        try await storage.blobStatus(accountID: try await space(group: group, accountID: accountID), sha256: blob.sha256)
    }

    public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data, group: String? = nil, accountID: Int64) async throws -> SyncBlobStatus {
        let space = try await space(group: group, accountID: accountID)
        guard (0..<blob.partCount).contains(index) else {
            throw SyncServiceError.invalidBlobPart("\(blob) has parts 0 to \(blob.partCount - 1), not \(index)")
        }
        guard bytes.count == blob.sizeOfPart(index) else {
            throw SyncServiceError.invalidBlobPart("part \(index) of \(blob) is \(blob.sizeOfPart(index)) bytes, not \(bytes.count)")
        }
        let status = try await storage.blobStatus(accountID: space, sha256: blob.sha256)
        guard !status.complete else { return status }
        try await storage.storeBlobPart(accountID: space, sha256: blob.sha256, index: index, bytes: bytes)
        guard let parts = try await storage.blobParts(accountID: space, sha256: blob.sha256, count: blob.partCount) else {
            return try await storage.blobStatus(accountID: space, sha256: blob.sha256)
        }
        let whole = parts.reduce(into: Data()) { $0.append($1) }
        let digest = SHA256.hash(data: whole).map { String(format: "%02x", $0) }.joined()
        guard digest == blob.sha256, Int64(whole.count) == blob.size else {
            try await storage.finishBlob(accountID: space, sha256: blob.sha256, bytes: nil)
            throw SyncServiceError.blobMismatch(blob)
        }
        try await storage.finishBlob(accountID: space, sha256: blob.sha256, bytes: whole)
        return SyncBlobStatus(complete: true, parts: [])
    }

    public func downloadBlob(_ blob: SyncBlobReference, group: String? = nil, accountID: Int64) async throws -> Data {
        guard let bytes = try await storage.blob(accountID: try await space(group: group, accountID: accountID), sha256: blob.sha256) else { throw SyncServiceError.blobNotFound(blob) }
        return bytes
    }

    /// The blobs `changes` name that the account doesn't hold whole.
    func missingBlobs(in changes: [SyncChange], accountID: Int64) async throws -> [SyncBlobReference] {
        var named: Set<SyncBlobReference> = []
        for change in changes {
            for case .blobReference(let blob) in change.values.values { named.insert(blob) }
        }
        var missing: [SyncBlobReference] = []
        for blob in named.sorted(by: { $0.sha256 < $1.sha256 }) where try await !storage.blobStatus(accountID: accountID, sha256: blob.sha256).complete {
            missing.append(blob)
        }
        return missing
    }
}
