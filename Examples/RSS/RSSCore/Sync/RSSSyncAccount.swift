import Foundation

/// The sync account a database is logged in to, kept in a file beside it
/// (`rss.sqlite` → `rss.sqlite.sync-account.json`, readable by its owner only).
public struct RSSSyncAccount: Codable, Sendable, Equatable {
    public var server: URL
    public var username: String
    public var token: String
    public var expiresAt: Date

    public init(server: URL, username: String, token: String, expiresAt: Date) {
        self.server = server
        self.username = username
        self.token = token
        self.expiresAt = expiresAt
    }

    static func fileURL(forDatabase database: URL) -> URL {
        database.deletingLastPathComponent().appendingPathComponent(database.lastPathComponent + ".sync-account.json")
    }

    /// The account of the database at `database`; nil when it has none.
    static func load(forDatabase database: URL) throws -> RSSSyncAccount? {
        let url = fileURL(forDatabase: database)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(RSSSyncAccount.self, from: Data(contentsOf: url))
        } catch {
            throw RSSError.syncFailed("the account file \(url.path) can't be read (\(error.localizedDescription)); log in again")
        }
    }

    func save(forDatabase database: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let url = Self.fileURL(forDatabase: database)
        try encoder.encode(self).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    static func remove(forDatabase database: URL) throws {
        let url = fileURL(forDatabase: database)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
