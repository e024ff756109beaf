import Foundation
import Logging
import QSDataSync
@testable import SyncServerKit
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every database call has a deadline: a database that stops answering costs a request a 503
/// within the limit, not a wait for ever, and the call left behind is cancelled.
@Suite(.timeLimit(.minutes(1)))
struct DatabaseDeadlineTests {
    @Test func aServerWhoseDatabaseStopsAnsweringAnswers503AndServesAgainOnceItIsBack() async throws {
        let storage = try FaultyStorage(base: SQLiteSyncStorage(path: TestFiles.temporaryPath()))
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
