import ExampleTestSupport
import Foundation
import Synchronization
import Testing
import VesperServerTestSupport

@testable import VesperServerKit

/// PostgreSQL frozen, crashed and started again under load: every call is answered (200, or
/// 503 within the database timeout while PostgreSQL is gone), the server serves again once it
/// is back, and no acknowledged note is lost.
@Suite("PostgreSQL outages", .serialized)
struct DatabaseOutageTests {
    static let enabled = ThrowawayPostgres.binaries != nil
    static let databaseTimeout = Duration.seconds(2)
    /// The longest any call may take: the database timeout, and a margin for a busy machine.
    static let longestCall = Duration.seconds(12)

    /// One answered call.
    struct Call: Sendable {
        var status: Int
        var duration: Duration
    }

    /// Notes the server acknowledged (200) by user, and every call's status and duration.
    final class Ledger: Sendable {
        let acknowledged = Mutex<[Int: [Int64]]>([:])
        let calls = Mutex<[Call]>([])
        let stop = Atomic<Bool>(false)
    }

    @Test(.enabled(if: enabled, "PostgreSQL is not installed"), .timeLimit(.minutes(5)))
    func everyCallIsAnsweredThroughAFreezeAndACrashAndNoAcknowledgedNoteIsLost() async throws {
        let postgres = try await ThrowawayPostgres.make()
        defer { postgres.remove() }
        let logs = LogRecorder()
        var configuration = VesperServerConfiguration(
            database: .postgres(url: postgres.url), attachmentsPath: "", secret: "outage test secret")
        configuration.bcryptCost = 4
        configuration.databaseTimeout = Self.databaseTimeout
        let server = try await VesperTestServer.start(configuration, logger: logs.logger)
        let client = TestClient(baseURL: server.baseURL)
        var tokens: [String] = []
        for user in 0..<4 {
            let credentials = TestClient.basic("user\(user)@example.com", "correct horse")
            #expect(try await client.send("POST", "createAccount", headers: credentials).status == 204)
            let login = try await client.send("POST", "login", headers: credentials, body: Data("{}".utf8))
            let object = try #require(try login.jsonObject() as? [String: Any])
            tokens.append(try #require(object["token"] as? String))
        }

        // Four clients upload notes one at a time, without pause, for the whole test.
        let ledger = Ledger()
        let signedIn = tokens
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for (user, token) in signedIn.enumerated() {
                    group.addTask { await Self.upload(user: user, token: token, client: client, ledger: ledger) }
                }
            }
        }
        try await Task.sleep(for: .seconds(1))
        // 1. Frozen: connections stay open and nothing answers.
        try await postgres.freeze()
        try await Task.sleep(for: Self.databaseTimeout * 2)
        try await postgres.thaw()
        #expect(try await Self.servesAgain(client: client, token: tokens[0]), "no answer after the thaw")
        // 2. Crashed and started again three seconds later.
        try await postgres.crash()
        try await Task.sleep(for: .seconds(3))
        try await postgres.start()
        #expect(try await Self.servesAgain(client: client, token: tokens[0]), "no answer after the restart")
        try await Task.sleep(for: .seconds(1))
        ledger.stop.store(true, ordering: .sequentiallyConsistent)
        await load.value

        let calls = ledger.calls.withLock { $0 }
        let statuses = Set(calls.map(\.status))
        let failures = logs.entries("Request failed").compactMap { $0.metadata["error"] }
        #expect(statuses.isSubset(of: [200, 503]), "statuses: \(statuses); failures: \(failures)")
        #expect(calls.contains { $0.status == 503 })
        let slowest = calls.map(\.duration).max() ?? .zero
        #expect(slowest < Self.longestCall, "the slowest call took \(slowest)")
        #expect(!logs.entries("Database unavailable").isEmpty)
        // Every acknowledged note is there.
        let acknowledged = ledger.acknowledged.withLock { $0 }
        for (user, token) in tokens.enumerated() {
            let stored = try await client.post("notes", token: token, json: [])
            let ids = Set(try stored.jsonArray().compactMap { ($0["noteID"] as? NSNumber)?.int64Value })
            let missing = Set(acknowledged[user] ?? []).subtracting(ids)
            #expect(missing.isEmpty, "user \(user) lost \(missing.count) acknowledged notes")
        }
        print("OUTAGE: \(calls.count) calls, \(calls.filter { $0.status == 200 }.count) acknowledged, "
            + "\(calls.filter { $0.status == 503 }.count) answered 503, the slowest in \(slowest)")
        try await server.shutdown()
    }

    /// The built server shuts down promptly on SIGTERM while PostgreSQL is frozen and a call
    /// waits on it: the call is answered 503 within the database timeout, then the server ends.
    @Test(.enabled(if: enabled && ServerProcess.executable != nil, "PostgreSQL or vesper-server is missing"))
    func sigtermDuringAnOutageStopsTheServerPromptly() async throws {
        let postgres = try await ThrowawayPostgres.make()
        defer { postgres.remove() }
        let server = try await ServerProcess.started(["--database", postgres.url, "--database-timeout", "2"])
        let token = try await SlowBodyAttackTests.signUp(port: server.port)
        try await postgres.freeze()
        let waiting = try RawConnection(port: server.port)
        try waiting.send("POST /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nx-zumo-auth: \(token)\r\nContent-Length: 2\r\n\r\n[]")
        try await Task.sleep(for: .milliseconds(500))
        let started = ContinuousClock.now
        let ended = await server.terminate(within: .seconds(15))
        let took = ContinuousClock.now - started
        #expect(ended, "vesper-server was still running 15 s after SIGTERM")
        #expect(took < .seconds(10), "vesper-server took \(took) to stop")
        let answer = await waiting.received(until: .now + .seconds(1))
        #expect(answer.map { String(decoding: $0, as: UTF8.self).hasPrefix("HTTP/1.1 503") } ?? false)
        print("OUTAGE: vesper-server stopped \(took) after SIGTERM with PostgreSQL frozen")
    }

    /// Uploads one new note after another until the ledger says stop, recording each answer.
    static func upload(user: Int, token: String, client: TestClient, ledger: Ledger) async {
        var next = Int64(10_000 + user * 100_000)
        while !ledger.stop.load(ordering: .sequentiallyConsistent) {
            next += 1
            let started = ContinuousClock.now
            do {
                let response = try await client.post("notes", token: token, json: [wireNote(next)])
                let call = Call(status: response.status, duration: ContinuousClock.now - started)
                ledger.calls.withLock { $0.append(call) }
                if response.status == 200 { ledger.acknowledged.withLock { $0[user, default: []].append(next) } }
                if response.status != 200 { try await Task.sleep(for: .milliseconds(100)) }
            } catch {
                ledger.calls.withLock { $0.append(Call(status: 0, duration: ContinuousClock.now - started)) }
            }
        }
    }

    /// Whether a call succeeds within 30 s of trying.
    static func servesAgain(client: TestClient, token: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try await client.post("tags", token: token, json: []).status == 200 { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }
}
