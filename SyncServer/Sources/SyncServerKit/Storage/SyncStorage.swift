import Foundation
import QSDataSync

/// Where the server keeps accounts, sessions and every account's object records. Every call
/// names the account it is for; no call reads or writes another's.
public protocol SyncStorage: Sendable {
    /// Creates the tables when missing (PostgreSQL connects first).
    func prepare() async throws
    /// Creates an account; throws ``SyncStorageError/usernameTaken`` when the name is used.
    func createAccount(username: String, passwordHash: String) async throws
    func account(username: String) async throws -> StoredAccount?
    func saveSession(tokenHash: String, accountID: Int64, expiresAt: Date) async throws
    /// The account a session token (its hash) belongs to, while it has not expired at `now`.
    func accountID(forSession tokenHash: String, now: Date) async throws -> Int64?
    /// Merges `changes` into the account's records in one transaction: all or nothing.
    func push(_ changes: [SyncChange], accountID: Int64) async throws -> SyncPushResponse
    /// The account's records changed after sequence number `after`, in order, at most `limit`.
    func pull(accountID: Int64, after: Int64, limit: Int) async throws -> PulledRecords
    /// Names this database: a token from another one (a replaced database) is refused.
    func databaseID() async throws -> String
}

public struct StoredAccount: Sendable, Equatable {
    public let id: Int64
    public let username: String
    public let passwordHash: String
}

/// Records a pull returns, with the sequence number of the last and whether more follow.
public struct PulledRecords: Sendable {
    public var records: [(table: String, id: SyncID, record: ServerRecord)]
    public var last: Int64
    public var more: Bool
}

public enum SyncStorageError: Error, Equatable, CustomStringConvertible {
    case usernameTaken
    /// A stored record could not be read back (the database was edited by hand?).
    case unreadableRecord(table: String, id: String)
    case notASyncServerDatabase(path: String)

    public var description: String {
        switch self {
        case .usernameTaken: "the username is taken"
        case .unreadableRecord(let table, let id): "the stored record of \(table) \(id) can't be read"
        case .notASyncServerDatabase(let path): "\(path) is not a sync server database"
        }
    }
}
