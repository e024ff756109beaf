import Foundation
import NIOPosix

/// Attachment bytes on disk: `<root>/user-<userID>/<name>`, written atomically, sealed with the
/// server's text keys like note text (AES-GCM, the key ID stored with the bytes so a rotated
/// key still opens older files), readable only by the server's user (folders 0700, files 0600).
///
/// Names are validated before they get here (``isValidName(_:)``), so no path is ever built from
/// unchecked input. File work runs on NIO's blocking thread pool.
struct BlobFileStore: Sendable {
    let root: URL
    let cipher: TextCipher

    /// The first bytes of a sealed file, then the key ID (8 bytes, big-endian), then the sealed box.
    static let magic = Data("VSB1".utf8)

    init(path: String, cipher: TextCipher) throws {
        root = URL(fileURLWithPath: path, isDirectory: true)
        self.cipher = cipher
        try Self.makePrivateFolder(root)
    }

    /// A UUID with an optional `-low` suffix, or anything else made of letters, digits and
    /// hyphens, up to 80 characters.
    static func isValidName(_ name: String) -> Bool {
        (1...80).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 }
    }

    private func folder(userID: Int64) -> URL {
        root.appendingPathComponent("user-\(userID)", isDirectory: true)
    }

    func write(_ data: Data, name: String, userID: Int64) async throws {
        let folder = folder(userID: userID)
        let sealed = try cipher.seal(data, associatedData: Self.associatedData(name, userID))
        var stored = Self.magic
        withUnsafeBytes(of: sealed.keyID.bigEndian) { stored.append(contentsOf: $0) }
        stored.append(sealed.combined)
        try await NIOThreadPool.singleton.runIfActive { [stored] in
            try Self.makePrivateFolder(folder)
            let file = folder.appendingPathComponent(name)
            // Data.write(options: .atomic) writes a temporary file and renames it into place;
            // the permissions are narrowed before the rename, so the bytes are never readable by others.
            let temporary = folder.appendingPathComponent(".\(name).\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: stored, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            if rename(temporary.path, file.path) != 0 {
                let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                // The rename's error is the one to report; a leftover temporary file is harmless.
                try? FileManager.default.removeItem(at: temporary)
                throw error
            }
        }
    }

    /// The bytes, or nil when the file is missing. Files written before encryption (no magic)
    /// are returned as they are.
    func read(name: String, userID: Int64) async throws -> Data? {
        let file = folder(userID: userID).appendingPathComponent(name)
        let stored = try await NIOThreadPool.singleton.runIfActive {
            FileManager.default.fileExists(atPath: file.path) ? try Data(contentsOf: file) : nil
        }
        guard let stored else { return nil }
        guard stored.starts(with: Self.magic), stored.count > Self.magic.count + 8 else { return stored }
        let keyBytes = stored.dropFirst(Self.magic.count).prefix(8)
        let keyID = keyBytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let sealed = TextCipher.Sealed(keyID: keyID, combined: Data(stored.dropFirst(Self.magic.count + 8)))
        return try cipher.open(sealed, associatedData: Self.associatedData(name, userID))
    }

    func remove(name: String, userID: Int64) async throws {
        let file = folder(userID: userID).appendingPathComponent(name)
        try await NIOThreadPool.singleton.runIfActive {
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.removeItem(at: file)
            }
        }
    }

    /// Binds sealed bytes to their user and name, so a file copied elsewhere fails to open.
    private static func associatedData(_ name: String, _ userID: Int64) -> Data {
        Data("blob:\(userID):\(name)".utf8)
    }

    /// Creates `folder` (and missing parents) and makes it 0700.
    static func makePrivateFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
    }
}
