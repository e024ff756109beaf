import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The Vesper sync server: the protocol's endpoints on a Hummingbird HTTP server, with the
/// embedded SQLite storage.
///
/// ```swift
/// let server = try VesperSyncServer(configuration: configuration, logger: logger)
/// try await server.run()   // until SIGINT or SIGTERM
/// ```
public struct VesperSyncServer: Sendable {
    public let configuration: VesperServerConfiguration
    let api: VesperAPI
    let logger: Logger

    /// Opens (creating when missing) the database and the attachments folder.
    public init(configuration: VesperServerConfiguration, logger: Logger) throws {
        let keys = ServerKeys(secret: configuration.secret ?? ServerKeys.randomSecret())
        let cipher = try Self.textCipher(configuration, keys: keys)
        let storage = try SQLiteVesperStorage(path: configuration.databasePath, cipher: cipher)
        self.configuration = configuration
        self.logger = logger
        api = VesperAPI(
            configuration: configuration,
            storage: storage,
            blobFiles: try BlobFileStore(path: configuration.attachmentsPath, cipher: cipher),
            keys: keys,
            hasher: PasswordHasher(cost: configuration.bcryptCost),
            throttle: LoginThrottle(attemptsPerMinute: configuration.loginAttemptsPerMinute))
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully (in-flight requests finish).
    public func run() async throws {
        let application = makeApplication()
        let group = ServiceGroup(
            configuration: .init(
                services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The server as a service for a `ServiceGroup` the caller runs and shuts down (tests, or a
    /// program that embeds the server); `onListening` hears the bound port once connections
    /// are accepted.
    public func service(onListening: @escaping @Sendable (_ port: Int?) async -> Void) -> some Service {
        makeApplication { channel in await onListening(channel.localAddress?.port) }
    }

    func makeApplication(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> Application<VesperResponder>
    {
        let limits = configuration.connectionLimits
        return Application(
            responder: VesperResponder(api: api),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [RequestHeadDeadlineHandler(limits: limits)],
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
    case didNotStart

    public var description: String {
        switch self {
        case .invalidTextKey(let id, let count): "text key \(id) is \(count) bytes; it must be 32"
        case .unknownCurrentTextKey(let id): "the current text key \(id) is not configured"
        case .didNotStart: "the server stopped before it was listening"
        }
    }
}
