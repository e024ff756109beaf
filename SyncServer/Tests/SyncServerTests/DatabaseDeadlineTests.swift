import Foundation
import Logging
import QSDataSync
@testable import SyncServerKit
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every database call has a deadline: a database that stops answering costs a request a 503
/// within the limit, not a wait for ever, and the call left behind is cancelled.
@Suite(.timeLimit(.minutes(1)))
struct DatabaseDeadlineTests {
    @Test func aServerWhoseDatabaseStopsAnsweringAnswers503AndServesAgainOnceItIsBack() async throws {
        let storage = try StallingStorage(base: SQLiteSyncStorage(path: TestFiles.temporaryPath()))
        let server = try await RunningSyncServer.start(Self.server(on: storage, limit: .seconds(2)))
        do {
            let url = server.baseURL
            try await QSSyncHTTPTransport.createAccount(server: url, username: "ann", password: "correct horse")

            storage.stalls = true
            let error = await #expect(throws: QSSyncError.self) {
                _ = try await QSSyncHTTPTransport.logIn(server: url, username: "ann", password: "correct horse")
            }
            guard case .server(let status, let code, let message) = error else {
                Issue.record("not the server's answer: \(String(describing: error))")
                return try await server.shutdown()
            }
            #expect(status == 503 && code == "unavailable")
            #expect(message.hasPrefix("the database is unavailable: no answer from the database within 2"), "\(message)")
            try await storage.waitUntilACallIsCancelled()
            var login = URLRequest(url: url.appendingPathComponent("v1/sessions"))
            login.httpMethod = "POST"
            login.httpBody = try SyncProtocol.makeEncoder().encode(SyncCredentials(username: "ann", password: "correct horse"))
            let (_, response) = try await URLSession.shared.data(for: login)
            #expect((response as? HTTPURLResponse)?.statusCode == 503)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After") == "5")

            storage.stalls = false
            let session = try await QSSyncHTTPTransport.logIn(server: url, username: "ann", password: "correct horse")
            #expect(!session.token.isEmpty)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test func answersAndTheStoragesOwnErrorsPassThrough() async throws {
        let calls = DatabaseCalls(limit: .seconds(30), logger: Self.logger) { SyncServiceError.unavailable($0) }
        let storage = BoundedSyncStorage(base: try SQLiteSyncStorage(path: TestFiles.temporaryPath()), calls: calls)
        try await storage.prepare()
        try await storage.createAccount(username: "ann", passwordHash: "hash")
        #expect(try await storage.account(username: "ann")?.passwordHash == "hash")
        await #expect(throws: SyncStorageError.usernameTaken) {
            try await storage.createAccount(username: "ann", passwordHash: "other")
        }
    }

    static let logger: Logger = {
        var logger = Logger(label: "database-deadline-tests")
        logger.logLevel = .critical
        return logger
    }()

    static func server(on storage: any SyncStorage, limit: Duration) -> SyncServer {
        let calls = DatabaseCalls(limit: limit, logger: logger) { SyncServiceError.unavailable($0) }
        return SyncServer(
            storage: BoundedSyncStorage(base: storage, calls: calls), postgres: nil, host: "127.0.0.1", port: 0, bcryptCost: 4,
            sessionLifetime: 3600, inactiveAfter: 3600, shutdownLimit: limit + .seconds(5), logger: logger)
    }
}

/// A storage that, while `stalls` is set, answers no call until the call is cancelled: a
/// database that stopped answering. Otherwise it is `base`.
final class StallingStorage: SyncStorage {
    private let base: any SyncStorage
    private let state = Mutex((stalls: false, cancelledCalls: 0))

    init(base: any SyncStorage) {
        self.base = base
    }

    var stalls: Bool {
        get { state.withLock { $0.stalls } }
        set { state.withLock { $0.stalls = newValue } }
    }

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
        try await gate(); return try await base.collect(accountID: accountID, activeSince: activeSince)
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
