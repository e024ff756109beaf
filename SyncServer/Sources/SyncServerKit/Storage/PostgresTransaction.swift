import Logging
import PostgresNIO

/// One transaction on a pooled connection, made so that no connection goes back to the pool
/// inside a transaction.
///
/// postgres-nio's own `withTransaction` returns the connection to the pool whatever became of
/// its `COMMIT` or `ROLLBACK`. Either can fail on the server before it runs: a database frozen
/// while one is being read answers it, once it runs again, with "canceling statement due to
/// statement timeout", and the session is still in its transaction, now aborted. The next call
/// given that connection then fails at `BEGIN` ("current transaction is aborted"), and so does
/// every call after it. Here a `COMMIT` that fails is followed by a `ROLLBACK` (which, after a
/// commit that did end the transaction, only warns). A `ROLLBACK` the server refuses is sent
/// once more, and a connection whose `ROLLBACK` still fails is closed: the server then rolls
/// back whatever it held. (Closing is the last resort: postgres-nio's pool, kept at no minimum
/// of connections, opens no replacement for callers already waiting, who then wait for the
/// next caller's request to open one.)
///
/// A `BEGIN` that fails is likewise followed by a `ROLLBACK`, and the transaction starts once
/// more on a connection from the pool (possibly the same one) before the failure is passed
/// on: nothing has been done yet, and the connection may have died while idle.
///
/// ```swift
/// let seen = try await PostgresTransaction(client: client, logger: logger).run { connection in
///     try await connection.query("UPDATE accounts SET seen = seen + 1 WHERE id = \(id)", logger: logger)
///     let rows = try await connection.query("SELECT seen FROM accounts WHERE id = \(id)", logger: logger)
///     return try await rows.collect().first?.decode(Int64.self) ?? 0
/// }
/// ```
public struct PostgresTransaction: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// What ends a transaction that went well; tests put a statement that fails in its place.
    let commit: PostgresQuery

    public init(client: PostgresClient, logger: Logger) {
        self.init(client: client, logger: logger, commit: "COMMIT")
    }

    init(client: PostgresClient, logger: Logger, commit: PostgresQuery) {
        self.client = client
        self.logger = logger
        self.commit = commit
    }

    /// `body`'s result once committed. Throws `body`'s own error, after rolling back; or the
    /// error of a failed `COMMIT` (which may or may not have happened: don't acknowledge it); or
    /// what the second attempt failed with when a `BEGIN` failed.
    public func run<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        do {
            return try await attempt(body)
        } catch let failure as BeginFailed {
            logger.warning(
                "A pooled connection could not begin a transaction; beginning once more",
                metadata: ["error": "\(String(reflecting: failure.error))"])
            do {
                return try await attempt(body)
            } catch let failure as BeginFailed {
                throw failure.error
            }
        }
    }

    /// A `BEGIN` that failed, with the error it failed with.
    private struct BeginFailed: Error {
        let error: any Error
    }

    private func attempt<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        try await client.withConnection { connection in
            do {
                try await connection.query("BEGIN", logger: logger)
            } catch {
                await rollBack(connection)
                throw BeginFailed(error: error)
            }
            do {
                let result = try await body(connection)
                try await connection.query(commit, logger: logger)
                return result
            } catch {
                await rollBack(connection)
                throw error
            }
        }
    }

    /// Ends whatever transaction the connection is in; closes the connection when it can't.
    private func rollBack(_ connection: PostgresConnection) async {
        do {
            try await connection.query("ROLLBACK", logger: logger)
        } catch let refusal as PSQLError where refusal.code == .server {
            // Refused, not lost: a statement timeout that fell on it, say. Once more.
            do {
                try await connection.query("ROLLBACK", logger: logger)
            } catch {
                await close(connection, after: error)
            }
        } catch {
            await close(connection, after: error)
        }
    }

    private func close(_ connection: PostgresConnection, after error: any Error) async {
        logger.warning(
            "Closing a database connection whose ROLLBACK failed", metadata: ["error": "\(String(reflecting: error))"])
        do {
            try await connection.close()
        } catch {
            logger.debug("The connection was closed already", metadata: ["error": "\(error)"])
        }
    }
}
