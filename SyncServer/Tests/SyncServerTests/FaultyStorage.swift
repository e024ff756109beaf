import Foundation
import QSDataSync
import Synchronization
import SyncServerKit

/// A storage with the faults of a real database, each switched on by a test: while `stalls` is
/// set it answers no call until the call is cancelled (a database that stopped answering); while
/// `collectionFailure` is set, collecting throws it. Otherwise it is `base`.
final class FaultyStorage: SyncStorage {
    private let base: any SyncStorage
    private let state = Mutex<(stalls: Bool, cancelledCalls: Int, collectionFailure: (any Error)?)>((false, 0, nil))

    init(base: any SyncStorage) {
        self.base = base
    }

    var stalls: Bool {
        get { state.withLock { $0.stalls } }
        set { state.withLock { $0.stalls = newValue } }
    }

    var collectionFailure: (any Error)? {
        get { state.withLock { $0.collectionFailure } }
        set { state.withLock { $0.collectionFailure = newValue } }
    }

    struct CollectionFailed: Error {}

    /// Waits (at most 30 s) until a stalled call has been cancelled.
    func waitUntilACallIsCancelled() async throws {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(30)
        while state.withLock({ $0.cancelledCalls }) == 0 {
            guard clock.now < end else { throw StallNeverCancelled() }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    struct StallNeverCancelled: Error {}

    private func gate() async throws {
        guard stalls else { return }
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            state.withLock { $0.cancelledCalls += 1 }
            throw error
        }
    }

    func prepare() async throws { try await gate(); try await base.prepare() }
    func createAccount(username: String, passwordHash: String) async throws {
        try await gate(); try await base.createAccount(username: username, passwordHash: passwordHash)
    }
    func account(username: String) async throws -> StoredAccount? { try await gate(); return try await base.account(username: username) }
    func saveSession(tokenHash: String, accountID: Int64, expiresAt: Date) async throws {
        try await gate(); try await base.saveSession(tokenHash: tokenHash, accountID: accountID, expiresAt: expiresAt)
    }
    func accountID(forSession tokenHash: String, now: Date) async throws -> Int64? {
        try await gate(); return try await base.accountID(forSession: tokenHash, now: now)
    }
    func push(_ changes: [SyncChange], accountID: Int64, base pulled: Int64, replica: SyncReplicaID, number: Int64?) async throws
        -> SyncPushResponse
    {
        try await gate(); return try await base.push(changes, accountID: accountID, base: pulled, replica: replica, number: number)
    }
    func pull(accountID: Int64, after: Int64, limit: Int) async throws -> PulledRecords {
        try await gate(); return try await base.pull(accountID: accountID, after: after, limit: limit)
    }
    func recordPull(accountID: Int64, replica: SyncReplicaID, position: Int64, at date: Date) async throws -> Int64? {
        try await gate(); return try await base.recordPull(accountID: accountID, replica: replica, position: position, at: date)
    }
    func collect(accountID: Int64, activeSince: Date) async throws -> SyncCollection {
        try await gate()
        if let failure = collectionFailure { throw failure }
        return try await base.collect(accountID: accountID, activeSince: activeSince)
    }
    func recordCount(accountID: Int64) async throws -> Int { try await gate(); return try await base.recordCount(accountID: accountID) }
    func blobStatus(accountID: Int64, sha256: String) async throws -> SyncBlobStatus {
        try await gate(); return try await base.blobStatus(accountID: accountID, sha256: sha256)
    }
    func storeBlobPart(accountID: Int64, sha256: String, index: Int, bytes: Data) async throws {
        try await gate(); try await base.storeBlobPart(accountID: accountID, sha256: sha256, index: index, bytes: bytes)
    }
    func blobParts(accountID: Int64, sha256: String, count: Int) async throws -> [Data]? {
        try await gate(); return try await base.blobParts(accountID: accountID, sha256: sha256, count: count)
    }
    func finishBlob(accountID: Int64, sha256: String, bytes: Data?) async throws {
        try await gate(); try await base.finishBlob(accountID: accountID, sha256: sha256, bytes: bytes)
    }
    func blob(accountID: Int64, sha256: String) async throws -> Data? {
        try await gate(); return try await base.blob(accountID: accountID, sha256: sha256)
    }
    func blobCount(accountID: Int64) async throws -> Int { try await gate(); return try await base.blobCount(accountID: accountID) }
    func databaseID() async throws -> String { try await gate(); return try await base.databaseID() }
    func createGroup(id: String, name: String, ownerID: Int64) async throws -> StoredGroup {
        try await gate(); return try await base.createGroup(id: id, name: name, ownerID: ownerID)
    }
    func group(id: String) async throws -> StoredGroup? { try await gate(); return try await base.group(id: id) }
    func groups(memberID accountID: Int64) async throws -> [StoredGroup] { try await gate(); return try await base.groups(memberID: accountID) }
    func members(ofGroup space: Int64) async throws -> [String] { try await gate(); return try await base.members(ofGroup: space) }
    func isMember(_ accountID: Int64, ofGroup space: Int64) async throws -> Bool {
        try await gate(); return try await base.isMember(accountID, ofGroup: space)
    }
    func addMember(_ accountID: Int64, toGroup space: Int64) async throws { try await gate(); try await base.addMember(accountID, toGroup: space) }
    func removeMember(_ accountID: Int64, fromGroup space: Int64) async throws {
        try await gate(); try await base.removeMember(accountID, fromGroup: space)
    }
}
