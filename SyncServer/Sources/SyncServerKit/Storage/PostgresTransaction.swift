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
/// every call after it until the connection closes. Here a connection whose transaction did not
/// end cleanly is closed instead, and the server rolls back whatever it held.
///
/// A failed `BEGIN` means the connection is of no use (it died while idle, or postgres-nio gave
/// up on it because of a late answer to an abandoned call); nothing has been done on it, so the
/// transaction starts once more on another connection before the failure is passed on.
///
/// ```swift
/// let count = try await PostgresTransaction(client: client, logger: logger).run { connection in
///     try await connection.query("UPDATE accounts SET seen = seen + 1 WHERE id = \(id)", logger: logger)
///     return try await connection.query("SELECT seen FROM accounts WHERE id = \(id)", logger: logger)
///         .collect().first?.decode(Int64.self) ?? 0
/// }
/// ```
public struct PostgresTransaction: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// `body`'s result once committed. Throws `body`'s own error after rolling back, or the
    /// error of a `BEGIN` that failed twice, or of a `COMMIT` that failed (and may or may not
    /// have happened: the caller must not acknowledge it).
    public func run<Result: Sendable>(_ body: (PostgresConnection) async throws -> sending Result) async throws -> Result {
        do {
            return try await attempt(body)
        } catch let failure as BeginFailed {
            logger.warning(
                "A pooled connection could not begin a transaction; trying another",
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

    private func attempt<Result: Sendable>(_ body: (PostgresConnection) async throws -> sending Result) async throws
        -> Result
    {
        try await client.withConnection { connection in
            do {
                try await connection.query("BEGIN", logger: logger)
            } catch {
                await close(connection, because: "its BEGIN failed")
                throw BeginFailed(error: error)
            }
            let result: Result
            do {
                result = try await body(connection)
            } catch {
                await rollBack(connection)
                throw error
            }
            do {
                try await connection.query("COMMIT", logger: logger)
            } catch {
                await close(connection, because: "its COMMIT failed")
                throw error
            }
            return result
        }
    }

    private func rollBack(_ connection: PostgresConnection) async {
        do {
            try await connection.query("ROLLBACK", logger: logger)
        } catch {
            await close(connection, because: "its ROLLBACK failed")
        }
    }

    /// Closes a connection whose transaction state is unknown; the pool opens another when needed.
    private func close(_ connection: PostgresConnection, because reason: String) async {
        logger.warning("Closing a database connection", metadata: ["reason": "\(reason)"])
        do {
            try await connection.close()
        } catch {
            // Already closed or closing: either way it holds no transaction any more.
            logger.debug("The connection was already closed", metadata: ["error": "\(error)"])
        }
    }
}
