import Logging
import PostgresNIO
// What a failed lease of a pooled connection throws; the module is postgres-nio's own (its
// name says it makes no promise of a stable API), so a new postgres-nio may move it.
import _ConnectionPoolModule

/// How every call to a database server is made: within a deadline, with the failures that mean
/// "the database is not there" turned into ``StorageError/unavailable(_:)`` (503) and logged.
struct DatabaseCalls: Sendable {
    let limit: Duration
    let logger: Logger

    /// `body`'s result; ``StorageError/unavailable(_:)`` when it has no answer within the limit
    /// or fails for want of a connection. Other errors pass as they are.
    func run<Value: Sendable>(_ call: String, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
        do {
            return try await CallDeadline.run(limit, body)
        } catch is CallDeadline.Passed {
            return try unavailable(call, "no answer from the database within \(limit.components.seconds) s")
        } catch let error as PSQLError where Self.meansUnavailable(error) {
            return try unavailable(call, Self.describe(error))
        } catch let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped {
            return try unavailable(call, "the pool could not open a database connection for a while")
        } catch let error as ConnectionPoolError where error == .poolShutdown {
            return try unavailable(call, "the database connection pool has shut down")
        }
    }

    private func unavailable<Value>(_ call: String, _ reason: String) throws -> Value {
        logger.error("Database unavailable", metadata: ["call": "\(call)", "reason": "\(reason)"])
        throw StorageError.unavailable(reason)
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
