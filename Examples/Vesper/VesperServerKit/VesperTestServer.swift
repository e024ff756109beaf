import Foundation
import Logging
import NIOCore

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
    private let task: Task<Void, any Error>

    private init(baseURL: URL, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.task = task
    }

    /// Starts a server and returns once it is accepting connections. Logs go to standard error
    /// at the level in the `LOG_LEVEL` environment variable, `warning` by default.
    public static func start(_ configuration: VesperServerConfiguration) async throws -> VesperTestServer {
        var logger = Logger(label: "vesper-server")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        let server = try VesperSyncServer(configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = server.makeApplication { channel in
            continuation.yield(channel.localAddress?.port ?? configuration.port)
            continuation.finish()
        }
        let task = Task {
            defer { continuation.finish() }
            try await application.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            try await task.value
            throw VesperServerError.didNotStart
        }
        let host = configuration.hostname.contains(":") ? "[\(configuration.hostname)]" : configuration.hostname
        guard let baseURL = URL(string: "http://\(host):\(port)/api/") else {
            task.cancel()
            throw VesperServerError.didNotStart
        }
        return VesperTestServer(baseURL: baseURL, task: task)
    }

    /// Stops accepting connections and waits for the server to finish.
    public func shutdown() async throws {
        task.cancel()
        do {
            try await task.value
        } catch is CancellationError {
            // The expected way for a cancelled server to end.
        }
    }
}
