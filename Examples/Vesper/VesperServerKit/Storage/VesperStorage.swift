import Foundation

/// Everything the server keeps, behind one small interface: the embedded SQLite engine (one
/// instance) or PostgreSQL (any number of instances on one database).
///
/// Rules every implementation keeps:
/// - every call that touches user data takes the user from the verified login token, and
///   every query is scoped by it; two users may hold the same noteID;
/// - a sync call checks, in its own transaction, that the token's account still exists with
///   the token's credential version, and otherwise throws ``StorageError/revokedLogin``
///   having changed nothing;
/// - each call that writes does all its writes in one transaction;
/// - dates are exact milliseconds; `SyncResult.date` comes from one monotonic source, and is
///   also the `serverModificationDate` of the rows the call wrote;
/// - merge rules are not the engine's: it applies ``NoteMerge`` and ``TagMerge``;
/// - a sync call of one user never interleaves with another of the same user, even across
///   server instances, so a merge never works from a stale row and a sync token's date covers
///   every write the user had before it.
protocol VesperStorage: LoginFailureStore {
    // MARK: Lifecycle

    /// Keeps the engine's connections alive until the task is cancelled (PostgreSQL's pool);
    /// returns at once when there is nothing to keep.
    func run() async
    /// Creates or migrates the schema; called once, before the server accepts connections,
    /// while ``run()`` is running.
    func prepare() async throws

    // MARK: Accounts

    /// Creates an account; throws ``StorageError/usernameTaken`` when the name exists.
    func createAccount(username: String, passwordHash: String, passwordAlgorithm: String, emailUpdates: Bool)
        async throws -> Int64
    func account(username: String) async throws -> Account?
    func account(id: Int64) async throws -> Account?
    /// Replaces the password hash and bumps the credential version, revoking older login tokens.
    /// False when there is no such account.
    func changePassword(userID: Int64, passwordHash: String, passwordAlgorithm: String) async throws -> Bool
    func setEmailUpdates(_ emailUpdates: Bool, userID: Int64) async throws -> Bool
    /// Records a password-reset token (its SHA-256, never the token) until `expiry` (milliseconds).
    func savePasswordReset(tokenHash: Data, userID: Int64, expiry: Int64) async throws
    /// Spends a password-reset token: removes it, in one step so it can be spent once, and
    /// returns its account's ID when it had not expired at `now`; nil for a token that is
    /// unknown, already spent or expired.
    func takePasswordReset(tokenHash: Data, now: Int64) async throws -> Int64?

    // MARK: Sync

    /// Merges the uploaded tags and returns the ones the client should take.
    func syncTags(_ uploaded: [SyncTag], account: SyncAccount) async throws -> [SyncTag]
    /// Records the uploaded tombstones, deletes their notes, and returns the IDs of
    /// tombstones that existed before this call and are newer than `since`.
    func syncDeletedNotes(_ uploaded: [Int64], since: Int64?, account: SyncAccount) async throws -> SyncResult<Int64>
    /// Merges the uploaded notes and returns the notes changed after `since` − `overlap`.
    func syncNotes(_ uploaded: [SyncNote], since: Int64?, overlap: Int64, account: SyncAccount) async throws
        -> SyncResult<SyncNote>

    // MARK: Blobs (metadata; the bytes live in a ``BlobByteStore``)

    func blobs(userID: Int64) async throws -> [BlobRecord]
    func blob(named name: String, userID: Int64) async throws -> BlobRecord?
    func saveBlob(_ blob: BlobRecord, userID: Int64) async throws
    func deleteBlob(named name: String, userID: Int64) async throws -> Bool
}

struct Account: Sendable, Equatable {
    var id: Int64
    var username: String
    var passwordHash: String
    var passwordAlgorithm: String
    var credentialVersion: Int64
    var emailUpdates: Bool
}

/// The account a sync call is for, as a verified login token names it.
struct SyncAccount: Sendable, Equatable {
    var id: Int64
    /// The token's credential version: the call runs only while the account's is the same.
    var credentialVersion: Int64
}

struct BlobRecord: Sendable, Equatable {
    var name: String
    var contentType: String
    var byteCount: Int64
    /// base64 of the MD5 of the bytes.
    var md5: String
    var dateCreated: Int64
}

/// What a sync call returns: the items for the client and the date its sync token carries.
struct SyncResult<Item: Sendable>: Sendable {
    var items: [Item]
    var date: Int64
}

/// Failed logins, kept where every server instance sees them; the policy is ``LoginThrottle``'s.
protocol LoginFailureStore: Sendable {
    /// For each of `keys` with failures at or after `since`: how many, and the oldest one's date.
    func loginFailures(keys: [String], since: Int64) async throws -> [String: LoginFailures]
    /// Records one failure for each key at `date`, and forgets every failure before `forgetBefore`.
    func recordLoginFailure(keys: [String], date: Int64, forgetBefore: Int64) async throws
    func clearLoginFailures(key: String) async throws
}

struct LoginFailures: Sendable, Equatable {
    var count: Int
    var oldest: Int64
}

enum StorageError: Error, Equatable, CustomStringConvertible {
    case usernameTaken
    case corruptRow(table: String, reason: String)
    /// A sync call whose login token names an account that no longer exists or whose password
    /// changed since the token was issued.
    case revokedLogin
    /// The database's schema is newer than this server knows (a newer server migrated it).
    case schemaTooNew(found: Int64, known: Int64)
    /// The SQLite file is not one this server made (another app's database, or no database at
    /// all); it was left as it was.
    case notAServerDatabase(path: String)
    /// The database did not answer in time or has no connection: the call changed nothing it
    /// acknowledged, and may be retried (503).
    case unavailable(String)

    var description: String {
        switch self {
        case .usernameTaken: "the username is taken"
        case .corruptRow(let table, let reason): "a row of \(table) is unreadable: \(reason)"
        case .revokedLogin: "the login token's account is gone or its password changed"
        case .unavailable(let reason): "the database is unavailable: \(reason)"
        case .notAServerDatabase(let path):
            "\(path) is not a vesper-server database (it was left as it was)"
        case .schemaTooNew(let found, let known):
            "the database schema is version \(found), newer than this server's \(known); run a newer server"
        }
    }
}
