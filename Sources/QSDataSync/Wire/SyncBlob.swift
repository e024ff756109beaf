import Foundation

/// A blob as objects name it: the SHA-256 of its bytes (64 lowercase hex digits) and its size.
/// A property the model syncs as a blob travels as this; the bytes travel once, by their own
/// endpoints, however many objects name them. On the wire: `{"sha256": "…", "size": 1234}`.
public struct SyncBlobReference: Hashable, Sendable, Codable, CustomStringConvertible {
    public let sha256: String
    public let size: Int64

    /// Nil unless `sha256` is 64 lowercase hex digits and `size` is from 0 to
    /// ``SyncProtocol/maximumBlobSize``: a name from the network is checked before anything uses it.
    public init?(sha256: String, size: Int64) {
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              (0...SyncProtocol.maximumBlobSize).contains(size)
        else { return nil }
        self.sha256 = sha256
        self.size = size
    }

    /// The reference of `data`.
    public init(of data: Data) {
        sha256 = SHA256.hex(of: data)
        size = Int64(data.count)
    }

    private enum CodingKeys: String, CodingKey { case sha256, size }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let hash = try container.decode(String.self, forKey: .sha256), size = try container.decode(Int64.self, forKey: .size)
        guard let reference = SyncBlobReference(sha256: hash, size: size) else {
            throw DecodingError.dataCorruptedError(forKey: .sha256, in: container, debugDescription: "not a blob reference: \(hash), \(size) bytes")
        }
        self = reference
    }

    /// How many parts of ``SyncProtocol/blobPartSize`` bytes the blob is sent in (at least one).
    public var partCount: Int { max(1, Int((size + Int64(SyncProtocol.blobPartSize) - 1) / Int64(SyncProtocol.blobPartSize))) }

    /// How many bytes part `index` has: ``SyncProtocol/blobPartSize``, but the last the rest.
    public func sizeOfPart(_ index: Int) -> Int {
        let start = Int64(index) * Int64(SyncProtocol.blobPartSize)
        return Int(max(0, min(Int64(SyncProtocol.blobPartSize), size - start)))
    }

    /// The bytes of part `index` of `data`.
    public func part(_ index: Int, of data: Data) -> Data {
        let start = index * SyncProtocol.blobPartSize
        return data.subdata(in: min(start, data.count)..<min(start + SyncProtocol.blobPartSize, data.count))
    }

    public var description: String { "\(sha256) (\(size) bytes)" }
}

/// `GET /v1/blobs/SHA256/parts?size=N`: what the server holds of a blob.
public struct SyncBlobStatus: Codable, Sendable, Equatable {
    /// Every part arrived and the bytes' digest matched.
    public var complete: Bool
    /// The parts held, by index, while it is not complete.
    public var parts: [Int]

    public init(complete: Bool, parts: [Int]) {
        self.complete = complete
        self.parts = parts
    }
}

extension SyncProtocol {
    /// The size of every part of a blob but its last.
    public static let blobPartSize = 1 << 20
    /// The largest blob: 256 MiB.
    public static let maximumBlobSize: Int64 = 256 << 20
}
