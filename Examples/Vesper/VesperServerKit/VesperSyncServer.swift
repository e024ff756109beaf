import Crypto
import Deadline
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import struct SyncServerKit.DatabaseCalls

/// The Vesper sync server: the protocol's endpoints on a Hummingbird HTTP server, with the
/// embedded SQLite storage or a PostgreSQL database shared by several instances.
///
/// ```swift
/// let server = try VesperSyncServer(configuration: configuration, logger: logger)
/// try await server.run()   // until SIGINT or SIGTERM
/// ```
public struct VesperSyncServer: Sendable {
    public let configuration: VesperServerConfiguration
    let api: VesperAPI
    let logger: Logger

    /// Opens the SQLite database (creating it when missing) and the attachments folder, or
    /// prepares the PostgreSQL connection pool, which connects and migrates once ``run()`` starts.
    public init(configuration: VesperServerConfiguration, logger: Logger) throws {
        let storage: any VesperStorage
        let blobBytes: any BlobByteStore
        let keys: ServerKeys
        let cipher: TextCipher
        let clock = ServerClock(now: configuration.now)
        switch configuration.database {
        case .sqlite(let path):
            keys = ServerKeys(secret: configuration.secret ?? ServerKeys.randomSecret())
            cipher = try Self.textCipher(configuration, keys: keys)
            storage = try SQLiteVesperStorage(path: path, cipher: cipher, clock: clock)
            blobBytes = try BlobFileStore(path: configuration.attachmentsPath, cipher: cipher)
        case .postgres(let url):
            guard let shared = configuration.secret, !shared.isEmpty else { throw VesperServerError.secretRequired }
            keys = ServerKeys(secret: shared)
            cipher = try Self.textCipher(configuration, keys: keys)
            let client = PostgresClient(
                configuration: try VesperDatabase.postgresConfiguration(url, statementTimeout: configuration.databaseTimeout),
                backgroundLogger: logger)
            // A call PostgreSQL can't answer fails with 503 within the timeout, never waits for ever.
            let calls = DatabaseCalls(limit: configuration.databaseTimeout, logger: logger) { StorageError.unavailable($0) }
            storage = BoundedStorage(
                base: PostgresVesperStorage(client: client, cipher: cipher, clock: clock, logger: logger), calls: calls)
            blobBytes = BoundedBlobByteStore(
                base: PostgresBlobByteStore(client: client, cipher: cipher, logger: logger), calls: calls)
        }
        self.configuration = configuration
        self.logger = logger
        api = VesperAPI(
            configuration: configuration,
            storage: storage,
            blobBytes: blobBytes,
            keys: keys,
            hasher: PasswordHasher(cost: configuration.bcryptCost),
            throttle: LoginThrottle(attemptsPerMinute: configuration.loginAttemptsPerMinute, store: storage, clock: clock),
            clock: clock)
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully (in-flight requests finish).
    public func run() async throws {
        let group = ServiceGroup(
            configuration: .init(
                services: [makeService()], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The server as a service for a `ServiceGroup` the caller runs and shuts down (tests, or a
    /// program that embeds the server): the storage's connections, the schema migration, then
    /// the HTTP server; `onListening` hears the bound port once connections are accepted.
    public func service(onListening: @escaping @Sendable (_ port: Int?) async -> Void) -> some Service {
        makeService { channel in await onListening(channel.localAddress?.port) }
    }

    func makeService(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) -> some Service {
        VesperServerService(storage: api.storage, application: makeApplication(onServerRunning: onServerRunning), logger: logger)
    }

    func makeApplication(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> Application<VesperResponder>
    {
        let limits = configuration.connectionLimits
        let perAddress = ConnectionsPerAddress(limit: limits.maximumConnectionsPerAddress)
        let logger = logger
        return Application(
            responder: VesperResponder(api: api),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [
                    ConnectionsPerAddressHandler(connections: perAddress, logger: logger),
                    RequestHeadDeadlineHandler(limits: limits),
                    RequestBodyDeadlineHandler(limits: limits),
                ],
                idleTimeout: .nanoseconds(limits.idleTimeout.wholeNanoseconds))),
            configuration: .init(
                address: .hostname(configuration.hostname, port: configuration.port), serverName: "vesper-server",
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumConnections, logger: logger)),
            onServerRunning: onServerRunning,
            logger: logger)
    }

    /// Key 0 derived from the secret, plus the configured keys; the current one is the configured
    /// current ID or else the highest.
    private static func textCipher(_ configuration: VesperServerConfiguration, keys: ServerKeys) throws -> TextCipher {
        var ring: [Int64: SecretKey] = [0: keys.defaultTextKey]
        for (id, data) in configuration.textKeys {
            guard data.count == 32 else { throw VesperServerError.invalidTextKey(id: id, byteCount: data.count) }
            ring[Int64(id)] = SecretKey(bytes: data)
        }
        let current = configuration.currentTextKeyID.map(Int64.init) ?? ring.keys.max() ?? 0
        guard ring[current] != nil else { throw VesperServerError.unknownCurrentTextKey(id: Int(current)) }
        return TextCipher(keys: ring, currentKeyID: current)
    }
}

/// Why the server could not start.
public enum VesperServerError: Error, CustomStringConvertible {
    case invalidTextKey(id: Int, byteCount: Int)
    case unknownCurrentTextKey(id: Int)
    case invalidDatabaseURL(String)
    /// PostgreSQL storage without a configured secret: instances would sign with different keys.
    case secretRequired
    case didNotStart

    public var description: String {
        switch self {
        case .invalidTextKey(let id, let count): "text key \(id) is \(count) bytes; it must be 32"
        case .unknownCurrentTextKey(let id): "the current text key \(id) is not configured"
        case .invalidDatabaseURL(let reason): "the database URL is invalid: \(reason)"
        case .secretRequired:
            "PostgreSQL storage needs a configured secret (VESPER_SERVER_SECRET), the same on every instance"
        case .didNotStart: "the server stopped before it was listening"
        }
    }
}

/// Runs the storage's connections for as long as the HTTP server, and migrates the schema
/// before the server accepts its first connection.
private struct VesperServerService: Service {
    let storage: any VesperStorage
    let application: Application<VesperResponder>
    let logger: Logger

    func run() async throws {
        // Detached, so that the pool does not see the graceful-shutdown signal (postgres-nio
        // closes on it): it must outlive the drain of in-flight requests.
        let (started, signal) = AsyncStream<Void>.makeStream()
        let connections = Task.detached {
            signal.finish()
            await storage.run()
        }
        defer { connections.cancel() }
        for await _ in started {}  // the pool is running (or about to) before the first query
        try await withTaskCancellationHandler {
            try await storage.prepare()
            try await application.run()
        } onCancel: {
            connections.cancel()
        }
        connections.cancel()
        // Closing connections to a database that is gone can wait on sockets nobody answers: the
        // server stops after a few seconds whatever they do.
        do {
            try await Deadline.run(.seconds(5), passed: { ConnectionsStillOpen() }) { await connections.value }
        } catch {
            logger.warning("The database connections did not close within 5 s; stopping without them")
        }
    }
}

/// The database connections did not close when the server stopped.
private struct ConnectionsStillOpen: Error {}
