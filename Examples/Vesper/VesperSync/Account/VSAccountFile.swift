import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the sync client keeps between runs: the server, the credentials and the sync state.
///
/// It lives in a JSON file beside the database (`vesper.sqlite` → `vesper-account.json`),
/// readable and writable only by the user (mode 0600), never in the database itself. The login
/// token is not stored: it is kept in memory and obtained by logging in.
public struct VSAccountState: Codable, Equatable, Sendable {
    /// The server's root URL.
    public var server: URL
    public var username: String
    public var password: String
    /// The `x-vesper-synctoken` of the last complete notes download.
    public var notesSyncToken: String?
    /// Server clock minus device clock, in seconds; 0 unless it was more than 120 s.
    public var clockSkew: TimeInterval = 0
    /// When the last sync finished (device clock): shown to the user only.
    public var lastSyncDate: Date?
    /// Notes the server refused, kept out of uploads until they are edited; nil when none.
    public var setAsideNotes: [VSSetAsideNote]?

    public init(server: URL, username: String, password: String) {
        self.server = server
        self.username = username
        self.password = password
    }
}

/// Reads and writes ``VSAccountState`` in its file, with owner-only permissions.
public struct VSAccountFile: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The account file of the database at `databaseURL`.
    public init(databaseURL: URL) {
        let name = databaseURL.deletingPathExtension().lastPathComponent + "-account.json"
        self.init(url: databaseURL.deletingLastPathComponent().appendingPathComponent(name, isDirectory: false))
    }

    /// The stored state; nil when there is no file (signed out).
    /// - Throws: ``VSAccountError/unreadableAccountFile(path:reason:)`` when it can't be read.
    public func load() throws -> VSAccountState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(VSAccountState.self, from: Data(contentsOf: url))
        } catch {
            throw VSAccountError.unreadableAccountFile(path: url.path, reason: String(describing: error))
        }
    }

    /// Writes the state atomically: a new file created with mode 0600, then renamed over the old.
    public func save(_ state: VSAccountState) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        do {
            let data = try encoder.encode(state)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission)
            }
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.write(contentsOf: data)
            try handle.close()
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path)
            guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw VSAccountError.unwritableAccountFile(path: url.path, reason: String(describing: error))
        }
    }

    /// Removes the file; a missing file is not an error.
    public func remove() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw VSAccountError.unwritableAccountFile(path: url.path, reason: String(describing: error))
        }
    }
}
