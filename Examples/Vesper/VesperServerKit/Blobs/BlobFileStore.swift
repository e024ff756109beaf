import Foundation
import NIOPosix

/// Attachment bytes on disk: `<root>/user-<userID>/<name>`, written atomically.
///
/// Names are validated before they get here (``isValidName(_:)``), so no path is ever built from
/// unchecked input. File work runs on NIO's blocking thread pool.
struct BlobFileStore: Sendable {
    let root: URL

    init(path: String) throws {
        root = URL(fileURLWithPath: path, isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
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
        try await NIOThreadPool.singleton.runIfActive {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Data.write(options: .atomic) writes a temporary file and renames it into place.
            try data.write(to: folder.appendingPathComponent(name), options: .atomic)
        }
    }

    /// The bytes, or nil when the file is missing.
    func read(name: String, userID: Int64) async throws -> Data? {
        let file = folder(userID: userID).appendingPathComponent(name)
        return try await NIOThreadPool.singleton.runIfActive {
            FileManager.default.fileExists(atPath: file.path) ? try Data(contentsOf: file) : nil
        }
    }

    func remove(name: String, userID: Int64) async throws {
        let file = folder(userID: userID).appendingPathComponent(name)
        try await NIOThreadPool.singleton.runIfActive {
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.removeItem(at: file)
            }
        }
    }
}
