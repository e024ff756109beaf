import ExampleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import VesperServerKit

extension DatabaseOutageTests {
    /// Calls given up on while PostgreSQL is frozen, at many moments of their work, never leave
    /// the pool a connection that is still inside a transaction: after each thaw the next call
    /// is served, and every note a call acknowledged is stored.
    ///
    /// A frozen server answers the statement it was reading, once it runs again, with its
    /// statement timeout; when that statement was the `COMMIT` or `ROLLBACK`, the session is
    /// left in an aborted transaction, and a pool that takes the connection back fails every
    /// later call on it with "current transaction is aborted". The pool here has one
    /// connection, so a spoiled one would be the next call's.
    @Test(.enabled(if: enabled, "PostgreSQL is not installed"), .timeLimit(.minutes(5)))
    func callsAbandonedDuringAFreezeLeaveNoConnectionInsideATransaction() async throws {
        let postgres = try await ThrowawayPostgres.make()
        defer { postgres.remove() }
        let configuration = try VesperDatabase.postgresConfiguration(
            postgres.url + "&pool_size=1", statementTimeout: .seconds(1))
        let storage = PostgresVesperStorage(
            client: PostgresClient(configuration: configuration),
            cipher: TextCipher(keys: [0: ServerKeys(secret: "x").defaultTextKey], currentKeyID: 0), clock: .system,
            logger: Logger(label: "abandoned-call-test"))
        let connections = Task { await storage.run() }
        defer { connections.cancel() }
        try await storage.prepare()
        let userID = try await storage.createAccount(
            username: "a@example.com", passwordHash: "h", passwordAlgorithm: "x", emailUpdates: false)
        let account = SyncAccount(id: userID, credentialVersion: 1)

        var acknowledged: Set<Int64> = []
        for round in 0..<18 {
            // Uploads of 1, 101 and 201 notes, frozen 0 to 17 ms after they start.
            let notes = (0..<(round % 3) * 100 + 1).map { index in
                SyncNote(
                    noteID: Int64(round * 1_000 + index + 1), text: String(repeating: "n", count: 200), creationDate: 1,
                    sortDate: 1, textModificationDate: 1)
            }
            let call = Task { try await storage.syncNotes(notes, since: 0, overlap: 0, account: account) }
            try await Task.sleep(for: .milliseconds(round))
            try await postgres.freeze()
            try await Task.sleep(for: .milliseconds(200))
            call.cancel()  // as the server's deadline does
            try await Task.sleep(for: .milliseconds(1_500))  // past the statement timeout
            try await postgres.thaw()
            if case .success = await call.result { acknowledged.formUnion(notes.map(\.noteID)) }

            let next = SyncNote(
                noteID: Int64(round * 1_000 + 999), text: "next", creationDate: 1, sortDate: 1, textModificationDate: 1)
            do {
                _ = try await storage.syncNotes([next], since: nil, overlap: 0, account: account)
                acknowledged.insert(next.noteID)
            } catch {
                Issue.record("round \(round): the call after the thaw failed: \(String(reflecting: error))")
            }
        }

        let stored = try await storage.syncNotes([], since: nil, overlap: 0, account: account).items.map(\.noteID)
        #expect(acknowledged.subtracting(stored).isEmpty, "acknowledged notes missing")
        #expect(acknowledged.count >= 18)
    }
}
