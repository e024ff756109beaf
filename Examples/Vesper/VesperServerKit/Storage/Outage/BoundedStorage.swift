import Foundation
import struct SyncServerKit.DatabaseCalls

/// A storage engine on a database server, with every call made through ``DatabaseCalls``: a
/// call the database can't answer — it is down, restarting, or its connection died silently —
/// fails with ``StorageError/unavailable(_:)`` within the limit instead of waiting for ever.
struct BoundedStorage: VesperStorage {
    let base: any VesperStorage
    let calls: DatabaseCalls

    // MARK: Lifecycle

    func run() async { await base.run() }
    /// Not bounded: a migration may take long, and the server starts only once it is done.
    func prepare() async throws { try await base.prepare() }

    // MARK: Accounts

    func createAccount(username: String, passwordHash: String, passwordAlgorithm: String, emailUpdates: Bool)
        async throws -> Int64
    {
        try await calls.run("createAccount") { [base] in
            try await base.createAccount(
                username: username, passwordHash: passwordHash, passwordAlgorithm: passwordAlgorithm,
                emailUpdates: emailUpdates)
        }
    }

    func account(username: String) async throws -> Account? {
        try await calls.run("account") { [base] in try await base.account(username: username) }
    }

    func account(id: Int64) async throws -> Account? {
        try await calls.run("account") { [base] in try await base.account(id: id) }
    }

    func changePassword(userID: Int64, passwordHash: String, passwordAlgorithm: String) async throws -> Bool {
        try await calls.run("changePassword") { [base] in
            try await base.changePassword(userID: userID, passwordHash: passwordHash, passwordAlgorithm: passwordAlgorithm)
        }
    }

    func setEmailUpdates(_ emailUpdates: Bool, userID: Int64) async throws -> Bool {
        try await calls.run("setEmailUpdates") { [base] in try await base.setEmailUpdates(emailUpdates, userID: userID) }
    }

    func savePasswordReset(tokenHash: Data, userID: Int64, expiry: Int64) async throws {
        try await calls.run("savePasswordReset") { [base] in
            try await base.savePasswordReset(tokenHash: tokenHash, userID: userID, expiry: expiry)
        }
    }

    func takePasswordReset(tokenHash: Data, now: Int64) async throws -> Int64? {
        try await calls.run("takePasswordReset") { [base] in try await base.takePasswordReset(tokenHash: tokenHash, now: now) }
    }

    // MARK: Sync

    func syncTags(_ uploaded: [SyncTag], account: SyncAccount) async throws -> [SyncTag] {
        try await calls.run("syncTags") { [base] in try await base.syncTags(uploaded, account: account) }
    }

    func syncDeletedNotes(_ uploaded: [Int64], since: Int64?, account: SyncAccount) async throws -> SyncResult<Int64> {
        try await calls.run("syncDeletedNotes") { [base] in
            try await base.syncDeletedNotes(uploaded, since: since, account: account)
        }
    }

    func syncNotes(_ uploaded: [SyncNote], since: Int64?, overlap: Int64, account: SyncAccount) async throws
        -> SyncResult<SyncNote>
    {
        try await calls.run("syncNotes") { [base] in
            try await base.syncNotes(uploaded, since: since, overlap: overlap, account: account)
        }
    }

    // MARK: Blobs

    func blobs(userID: Int64) async throws -> [BlobRecord] {
        try await calls.run("blobs") { [base] in try await base.blobs(userID: userID) }
    }

    func blob(named name: String, userID: Int64) async throws -> BlobRecord? {
        try await calls.run("blob") { [base] in try await base.blob(named: name, userID: userID) }
    }

    func saveBlob(_ blob: BlobRecord, userID: Int64) async throws {
        try await calls.run("saveBlob") { [base] in try await base.saveBlob(blob, userID: userID) }
    }

    func deleteBlob(named name: String, userID: Int64) async throws -> Bool {
        try await calls.run("deleteBlob") { [base] in try await base.deleteBlob(named: name, userID: userID) }
    }

    // MARK: Login failures

    func loginFailures(keys: [String], since: Int64) async throws -> [String: LoginFailures] {
        try await calls.run("loginFailures") { [base] in try await base.loginFailures(keys: keys, since: since) }
    }

    func recordLoginFailure(keys: [String], date: Int64, forgetBefore: Int64) async throws {
        try await calls.run("recordLoginFailure") { [base] in
            try await base.recordLoginFailure(keys: keys, date: date, forgetBefore: forgetBefore)
        }
    }

    func clearLoginFailures(key: String) async throws {
        try await calls.run("clearLoginFailures") { [base] in try await base.clearLoginFailures(key: key) }
    }
}

/// Attachment bytes on a database server, every call made through ``DatabaseCalls``.
struct BoundedBlobByteStore: BlobByteStore {
    let base: any BlobByteStore
    let calls: DatabaseCalls

    func write(_ data: Data, name: String, userID: Int64) async throws {
        try await calls.run("writeBlobBytes") { [base] in try await base.write(data, name: name, userID: userID) }
    }

    func read(name: String, userID: Int64) async throws -> Data? {
        try await calls.run("readBlobBytes") { [base] in try await base.read(name: name, userID: userID) }
    }

    func remove(name: String, userID: Int64) async throws {
        try await calls.run("removeBlobBytes") { [base] in try await base.remove(name: name, userID: userID) }
    }
}
