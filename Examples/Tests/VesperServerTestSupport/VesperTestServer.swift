import Foundation
import Logging
import ServiceLifecycle
import VesperServerKit

/// A live server for tests: listens on a free port (unless the configuration names one) until
/// ``shutdown()``.
///
/// ```swift
/// let server = try await VesperTestServer.start(.init(databasePath: db, attachmentsPath: dir))
/// defer { Task { try await server.shutdown() } }
/// let loginURL = server.baseURL.appendingPathComponent("login")   // http://127.0.0.1:54321/api/login
/// ```
public final class VesperTestServer: Sendable {
    /// The API's base URL, such as `http://127.0.0.1:54321/api/`.
    public let baseURL: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(baseURL: URL, group: ServiceGroup, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.group = group
        self.task = task
    }

    /// Starts a server and returns once it is accepting connections.
    ///
    /// - Parameter logger: where the server logs; by default standard error at the level in the
    ///   `LOG_LEVEL` environment variable, `warning` when unset.
    public static func start(_ configuration: VesperServerConfiguration, logger: Logger? = nil) async throws
        -> VesperTestServer
    {
        let logger = logger ?? defaultLogger()
        let server = try VesperSyncServer(configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = server.service { port in
            continuation.yield(port ?? configuration.port)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            try await task.value
            throw VesperServerError.didNotStart
        }
        let host = configuration.hostname.contains(":") ? "[\(configuration.hostname)]" : configuration.hostname
        guard let baseURL = URL(string: "http://\(host):\(port)/api/") else {
            await group.triggerGracefulShutdown()
            throw VesperServerError.didNotStart
        }
        return VesperTestServer(baseURL: baseURL, group: group, task: task)
    }

    private static func defaultLogger() -> Logger {
        var logger = Logger(label: "vesper-server")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        return logger
    }

    /// Stops accepting connections, lets in-flight requests finish, and waits for the server to end.
    public func shutdown() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
