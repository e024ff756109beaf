import Foundation

/// Everything the server keeps, behind one small interface, so that another engine (PostgreSQL)
/// can stand in for the embedded SQLite one.
///
/// Rules every implementation keeps:
/// - every call that touches user data takes the `userID` from the verified login token, and
///   every query is scoped by it; two users may hold the same noteID;
/// - each call that writes does all its writes in one transaction;
/// - dates are exact milliseconds; `SyncResult.date` comes from one monotonic source, and is
///   also the `serverModificationDate` of the rows the call wrote;
/// - merge rules are not the engine's: it applies ``NoteMerge`` and ``TagMerge``.
protocol VesperStorage: Sendable {
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
    func syncTags(_ uploaded: [SyncTag], userID: Int64) async throws -> [SyncTag]
    /// Records the uploaded tombstones, deletes their notes, and returns the IDs of
    /// tombstones that existed before this call and are newer than `since`.
    func syncDeletedNotes(_ uploaded: [Int64], since: Int64?, userID: Int64) async throws -> SyncResult<Int64>
    /// Merges the uploaded notes and returns the notes changed after `since` − `overlap`.
    func syncNotes(_ uploaded: [SyncNote], since: Int64?, overlap: Int64, userID: Int64) async throws
        -> SyncResult<SyncNote>

    // MARK: Blobs (metadata; the bytes live in a ``BlobFileStore``)

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

enum StorageError: Error, CustomStringConvertible {
    case usernameTaken
    case corruptRow(table: String, reason: String)

    var description: String {
        switch self {
        case .usernameTaken: "the username is taken"
        case .corruptRow(let table, let reason): "a row of \(table) is unreadable: \(reason)"
        }
    }
}
