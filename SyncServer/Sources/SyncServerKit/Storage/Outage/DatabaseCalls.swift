import Deadline
import Logging
import PostgresNIO
// What a failed lease of a pooled connection throws; the module is postgres-nio's own (its
// name says it makes no promise of a stable API), so a new postgres-nio may move it.
import _ConnectionPoolModule

/// How every call to a database server is made: within a deadline, with the failures that mean
/// "the database is not there" logged and turned into the server's own "unavailable" error,
/// which it answers with 503.
///
/// ```swift
/// let calls = DatabaseCalls(limit: .seconds(10), logger: logger) { reason in MyError.unavailable(reason) }
/// let rows = try await calls.run("fetchNotes") { try await storage.fetchNotes() }
/// ```
public struct DatabaseCalls: Sendable {
    public let limit: Duration
    let logger: Logger
    /// The error a call the database can't answer ends in, given why.
    let unavailable: @Sendable (String) -> any Error

    public init(limit: Duration, logger: Logger, unavailable: @escaping @Sendable (String) -> any Error) {
        self.limit = limit
        self.logger = logger
        self.unavailable = unavailable
    }

    /// `body`'s result; the `unavailable` error when it has no answer within the limit or fails
    /// for want of a connection. Other errors pass as they are. The work left behind at the
    /// deadline is cancelled.
    public func run<Value: Sendable>(_ call: String, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
        do {
            return try await Deadline.run(limit, passed: { NoAnswer() }, body)
        } catch is NoAnswer {
            throw failure(call, "no answer from the database within \(limit)")
        } catch let error as PSQLError where Self.meansUnavailable(error) {
            throw failure(call, Self.describe(error))
        } catch let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped {
            throw failure(call, "the pool could not open a database connection for a while")
        } catch let error as ConnectionPoolError where error == .poolShutdown {
            throw failure(call, "the database connection pool has shut down")
        }
    }

    private struct NoAnswer: Error {}

    private func failure(_ call: String, _ reason: String) -> any Error {
        logger.error("Database unavailable", metadata: ["call": "\(call)", "reason": "\(reason)"])
        return unavailable(reason)
    }

    /// A lost or refused connection, a pool shutting down, a statement the server cancelled
    /// (its statement timeout, or an administrator), or a server out of connections.
    static func meansUnavailable(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .queryCancelled:
            return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            // 08: connection exception, 57: operator intervention (57014 statement timeout,
            // 57P01–57P03 shutdown and restart), 53: insufficient resources.
            return state.hasPrefix("08") || state.hasPrefix("57") || state.hasPrefix("53")
        default:
            return false
        }
    }

    private static func describe(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] { return "the database refused the call: \(message)" }
        return "the database connection failed (\(error.code))"
    }
}
