import Foundation
import Logging
import ServiceLifecycle

/// A server started in this process, serving until ``shutdown()``: for a program that embeds
/// the server, and for tests (on port 0 it takes any free port; ``baseURL`` says which).
///
/// ```swift
/// let running = try await RunningSyncServer.start(SyncServer(database: .sqlite(path: path), port: 0, logger: logger))
/// let transport = QSSyncHTTPTransport(server: running.baseURL, token: token)
/// try await running.shutdown()
/// ```
public final class RunningSyncServer: Sendable {
    /// Where it listens, such as `http://127.0.0.1:54321`.
    public let baseURL: URL
    public let server: SyncServer
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(baseURL: URL, server: SyncServer, group: ServiceGroup, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.server = server
        self.group = group
        self.task = task
    }

    /// Starts `server` and returns once it accepts connections.
    public static func start(_ server: SyncServer) async throws -> RunningSyncServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var configuration = ServiceGroupConfiguration(services: server.services { port in
            continuation.yield(port)
            continuation.finish()
        }, logger: server.logger)
        configuration.maximumGracefulShutdownDuration = server.shutdownLimit
        let group = ServiceGroup(configuration: configuration)
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        let host = server.host.contains(":") ? "[\(server.host)]" : server.host
        guard let port = await iterator.next(), let url = URL(string: "http://\(host):\(port)") else {
            try await task.value
            throw SyncServerError.didNotStart
        }
        return RunningSyncServer(baseURL: url, server: server, group: group, task: task)
    }

    /// Stops accepting connections, lets requests in flight finish, and waits for the end.
    public func shutdown() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
