import Foundation
import Logging
import PostgresNIO
import Testing

@testable import SyncServerKit

/// Transactions on a pool of one connection, so that a connection left inside a transaction
/// would be the next caller's: whatever became of a transaction's end, the next one is served
/// and sees only what was committed.
@Suite(.enabled(if: TestPostgres.isAvailable, "PostgreSQL is not configured"), .timeLimit(.minutes(2)))
struct PostgresTransactionTests {
    /// A fresh table on a pool of one connection for `body`; both go afterwards.
    func withOneConnection(_ body: (PostgresClient, String) async throws -> Void) async throws {
        let url = try #require(TestPostgres.url, "VESPER_TEST_POSTGRES_URL is not set")
        var configuration = try PostgresSyncStorage.configuration(url)
        configuration.options.maximumConnections = 1
        configuration.options.connectTimeout = .seconds(30)
        let client = PostgresClient(configuration: configuration)
        let connections = Task { await client.run() }
        defer { connections.cancel() }
        let table = "transaction_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (value BIGINT)"))
        do {
            try await body(client, table)
        } catch {
            try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"))
            throw error
        }
        try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"))
    }

    static let logger = Logger(label: "transaction-tests")

    /// Inserts `value` into `table` in a transaction ended by `commit`.
    static func insert(_ value: Int64, into table: String, client: PostgresClient, commit: PostgresQuery = "COMMIT")
        async throws
    {
        _ = try await PostgresTransaction(client: client, logger: logger, commit: commit).run { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (\(value))"), logger: logger)
        }
    }

    static func values(in table: String, client: PostgresClient) async throws -> [Int64] {
        var values: [Int64] = []
        for try await value in try await client.query(
            PostgresQuery(unsafeSQL: "SELECT value FROM \(table) ORDER BY value")
        ).decode(Int64.self) {
            values.append(value)
        }
        return values
    }

    /// A `COMMIT` the server refuses before running it (here a syntax error; in an outage, a
    /// statement timeout) leaves the session in an aborted transaction: it is rolled back, and
    /// the next transaction on the one connection commits.
    @Test func aCommitThatFailsBeforeRunningLeavesNoTransactionBehind() async throws {
        try await withOneConnection { client, table in
            await #expect(throws: PSQLError.self) {
                try await Self.insert(1, into: table, client: client, commit: "COMMIT refused")
            }
            try await Self.insert(2, into: table, client: client)
            #expect(try await Self.values(in: table, client: client) == [2])
        }
    }

    /// A caller already waiting for the pool's only connection when a `COMMIT` fails gets it,
    /// clean, and commits. (Both run as child tasks, so that the time limit's cancellation
    /// reaches a caller left waiting, and the test fails instead of hanging.)
    @Test func aCallerWaitingForTheConnectionIsServedAfterACommitFails() async throws {
        try await withOneConnection { client, table in
            let (held, holding) = AsyncStream<Void>.makeStream()
            let (released, release) = AsyncStream<Void>.makeStream()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { holding.finish() }
                    await #expect(throws: PSQLError.self) {
                        try await PostgresTransaction(client: client, logger: Self.logger, commit: "COMMIT refused").run {
                            connection in
                            try await connection.query(
                                PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (1)"), logger: Self.logger)
                            holding.yield()
                            for await _ in released { break }
                        }
                    }
                }
                for await _ in held { break }
                group.addTask { try await Self.insert(2, into: table, client: client) }
                // Time for the second caller to queue for the connection; the test holds either way.
                try await Task.sleep(for: .milliseconds(200))
                release.finish()
                try await group.waitForAll()
            }
            #expect(try await Self.values(in: table, client: client) == [2])
        }
    }

    /// A connection some other code left inside a failed transaction is rolled back when a
    /// transaction's `BEGIN` finds it so, and the transaction begins once more and commits.
    @Test func aConnectionLeftInsideAFailedTransactionIsRolledBackAndTheTransactionRuns() async throws {
        try await withOneConnection { client, table in
            try await client.withConnection { connection in
                try await connection.query("BEGIN", logger: Self.logger)
                try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES (1)"), logger: Self.logger)
                await #expect(throws: PSQLError.self) {
                    try await connection.query("SELECT 1 / 0", logger: Self.logger)
                }
            }
            try await Self.insert(2, into: table, client: client)
            #expect(try await Self.values(in: table, client: client) == [2])
        }
    }
}
