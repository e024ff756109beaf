import Foundation
import QSDataSync

/// A storage on a database server with every call made through ``DatabaseCalls``: a call the
/// database can't answer (it is down, frozen, restarting, or its connection died without a
/// word) fails with ``SyncServiceError/unavailable(_:)``, a 503, within the limit, instead of
/// holding its request for ever.
public struct BoundedSyncStorage: SyncStorage {
    let base: any SyncStorage
    let calls: DatabaseCalls

    public init(base: any SyncStorage, calls: DatabaseCalls) {
        self.base = base
        self.calls = calls
    }

    /// Not bounded: a first start may create the tables under a lock other instances hold, and
    /// the server answers nothing until it is done.
    public func prepare() async throws { try await base.prepare() }

    // MARK: Accounts and sessions

    public func createAccount(username: String, passwordHash: String) async throws {
        try await calls.run("createAccount") { [base] in try await base.createAccount(username: username, passwordHash: passwordHash) }
    }

    public func account(username: String) async throws -> StoredAccount? {
        try await calls.run("account") { [base] in try await base.account(username: username) }
    }

    public func saveSession(tokenHash: String, accountID: Int64, expiresAt: Date) async throws {
        try await calls.run("saveSession") { [base] in
            try await base.saveSession(tokenHash: tokenHash, accountID: accountID, expiresAt: expiresAt)
        }
    }

    public func accountID(forSession tokenHash: String, now: Date) async throws -> Int64? {
        try await calls.run("accountID") { [base] in try await base.accountID(forSession: tokenHash, now: now) }
    }

    public func databaseID() async throws -> String {
        try await calls.run("databaseID") { [base] in try await base.databaseID() }
    }

    // MARK: Records

    public func push(_ changes: [SyncChange], accountID: Int64, base pulled: Int64, replica: SyncReplicaID, number: Int64?) async throws
        -> SyncPushResponse
    {
        try await calls.run("push") { [base] in
            try await base.push(changes, accountID: accountID, base: pulled, replica: replica, number: number)
        }
    }

    public func pull(accountID: Int64, after: Int64, limit: Int) async throws -> PulledRecords {
        try await calls.run("pull") { [base] in try await base.pull(accountID: accountID, after: after, limit: limit) }
    }

    public func recordPull(accountID: Int64, replica: SyncReplicaID, position: Int64, at date: Date) async throws -> Int64? {
        try await calls.run("recordPull") { [base] in
            try await base.recordPull(accountID: accountID, replica: replica, position: position, at: date)
        }
    }

    public func collect(accountID: Int64, activeSince: Date) async throws -> SyncCollection {
        try await calls.run("collect") { [base] in try await base.collect(accountID: accountID, activeSince: activeSince) }
    }

    public func recordCount(accountID: Int64) async throws -> Int {
        try await calls.run("recordCount") { [base] in try await base.recordCount(accountID: accountID) }
    }

    // MARK: Blobs

    public func blobStatus(accountID: Int64, sha256: String) async throws -> SyncBlobStatus {
        try await calls.run("blobStatus") { [base] in try await base.blobStatus(accountID: accountID, sha256: sha256) }
    }

    public func storeBlobPart(accountID: Int64, sha256: String, index: Int, bytes: Data) async throws {
        try await calls.run("storeBlobPart") { [base] in
            try await base.storeBlobPart(accountID: accountID, sha256: sha256, index: index, bytes: bytes)
        }
    }

    public func blobParts(accountID: Int64, sha256: String, count: Int) async throws -> [Data]? {
        try await calls.run("blobParts") { [base] in try await base.blobParts(accountID: accountID, sha256: sha256, count: count) }
    }

    public func finishBlob(accountID: Int64, sha256: String, bytes: Data?) async throws {
        try await calls.run("finishBlob") { [base] in try await base.finishBlob(accountID: accountID, sha256: sha256, bytes: bytes) }
    }

    public func blob(accountID: Int64, sha256: String) async throws -> Data? {
        try await calls.run("blob") { [base] in try await base.blob(accountID: accountID, sha256: sha256) }
    }

    public func blobCount(accountID: Int64) async throws -> Int {
        try await calls.run("blobCount") { [base] in try await base.blobCount(accountID: accountID) }
    }

    // MARK: Groups

    public func createGroup(id: String, name: String, ownerID: Int64) async throws -> StoredGroup {
        try await calls.run("createGroup") { [base] in try await base.createGroup(id: id, name: name, ownerID: ownerID) }
    }

    public func group(id: String) async throws -> StoredGroup? {
        try await calls.run("group") { [base] in try await base.group(id: id) }
    }

    public func groups(memberID accountID: Int64) async throws -> [StoredGroup] {
        try await calls.run("groups") { [base] in try await base.groups(memberID: accountID) }
    }

    public func members(ofGroup space: Int64) async throws -> [String] {
        try await calls.run("members") { [base] in try await base.members(ofGroup: space) }
    }

    public func isMember(_ accountID: Int64, ofGroup space: Int64) async throws -> Bool {
        try await calls.run("isMember") { [base] in try await base.isMember(accountID, ofGroup: space) }
    }

    public func addMember(_ accountID: Int64, toGroup space: Int64) async throws {
        try await calls.run("addMember") { [base] in try await base.addMember(accountID, toGroup: space) }
    }

    public func removeMember(_ accountID: Int64, fromGroup space: Int64) async throws {
        try await calls.run("removeMember") { [base] in try await base.removeMember(accountID, fromGroup: space) }
    }
}
