import Foundation

/// How attachment bytes are sealed at rest, by every ``BlobByteStore``: the server's text keys
/// (AES-GCM, like note text), bound to their user and name so that bytes copied elsewhere fail
/// to open, with the key ID stored next to them so that a rotated key still opens older bytes.
///
/// Layout: `VSB1`, the key ID (8 bytes, big-endian), then the sealed box.
enum SealedBlob {
    static let magic = Data("VSB1".utf8)

    static func seal(_ data: Data, name: String, userID: Int64, cipher: TextCipher) throws -> Data {
        let sealed = try cipher.seal(data, associatedData: associatedData(name, userID))
        var stored = magic
        withUnsafeBytes(of: sealed.keyID.bigEndian) { stored.append(contentsOf: $0) }
        stored.append(sealed.combined)
        return stored
    }

    /// The plain bytes; bytes stored before encryption (no magic) are returned as they are.
    static func open(_ stored: Data, name: String, userID: Int64, cipher: TextCipher) throws -> Data {
        guard stored.starts(with: magic), stored.count > magic.count + 8 else { return stored }
        let keyID = stored.dropFirst(magic.count).prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let sealed = TextCipher.Sealed(keyID: keyID, combined: Data(stored.dropFirst(magic.count + 8)))
        return try cipher.open(sealed, associatedData: associatedData(name, userID))
    }

    private static func associatedData(_ name: String, _ userID: Int64) -> Data {
        Data("blob:\(userID):\(name)".utf8)
    }
}
