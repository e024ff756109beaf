import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// Where the server keeps its data.
public enum SyncDatabase: Sendable, Equatable {
    /// One SQLite file, for a single instance.
    case sqlite(path: String)
    /// A PostgreSQL database shared by any number of instances:
    /// `postgres://user:password@host:port/database?sslmode=disable`.
    case postgres(url: String)
}

/// The sync server: the protocol's endpoints on Hummingbird over a ``SyncStorage``.
///
/// ```swift
/// let server = try SyncServer(database: .sqlite(path: "sync.sqlite"), port: 8090, logger: logger)
/// try await server.run()   // until SIGINT or SIGTERM
/// ```
public struct SyncServer: Sendable {
    public let service: SyncService
    let host: String
    let port: Int
    let logger: Logger
    /// The PostgreSQL pool, which runs as a service beside the HTTP server.
    let postgres: PostgresClient?
    /// How long a graceful shutdown may take before the services are cancelled: requests in
    /// flight end within the database deadline, and a pool closing its connections to a database
    /// that no longer answers would wait on sockets nobody closes.
    let shutdownLimit: Duration

    public init(
        database: SyncDatabase, host: String = "127.0.0.1", port: Int = 8090, bcryptCost: UInt8 = 10,
        sessionLifetime: TimeInterval = 30 * 24 * 60 * 60, inactiveAfter: TimeInterval = SyncService.defaultInactiveAfter,
        databaseTimeout: Duration = .seconds(10), logger: Logger
    ) throws {
        let storage: any SyncStorage
        let postgres: PostgresClient?
        switch database {
        case .sqlite(let path):
            storage = try SQLiteSyncStorage(path: path)
            postgres = nil
        case .postgres(let url):
            let client = PostgresClient(
                configuration: try PostgresSyncStorage.configuration(url, statementTimeout: databaseTimeout), backgroundLogger: logger)
            // A call PostgreSQL can't answer fails with 503 within the timeout, never waits for ever.
            let calls = DatabaseCalls(limit: databaseTimeout, logger: logger) { SyncServiceError.unavailable($0) }
            storage = BoundedSyncStorage(base: PostgresSyncStorage(client: client, logger: logger), calls: calls)
            postgres = client
        }
        self.init(
            storage: storage, postgres: postgres, host: host, port: port, bcryptCost: bcryptCost, sessionLifetime: sessionLifetime,
            inactiveAfter: inactiveAfter, shutdownLimit: databaseTimeout + .seconds(5), logger: logger)
    }

    /// A server on `storage`, with the PostgreSQL pool it uses, if any, to run beside it.
    init(
        storage: any SyncStorage, postgres: PostgresClient?, host: String, port: Int, bcryptCost: UInt8, sessionLifetime: TimeInterval,
        inactiveAfter: TimeInterval, shutdownLimit: Duration, logger: Logger
    ) {
        service = SyncService(
            storage: storage, sessionLifetime: sessionLifetime, bcryptCost: bcryptCost, inactiveAfter: inactiveAfter, logger: logger)
        self.postgres = postgres
        self.shutdownLimit = shutdownLimit
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Serves until SIGINT or SIGTERM.
    public func run() async throws {
        var configuration = ServiceGroupConfiguration(
            services: services(onListening: { _ in }), gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownLimit
        try await ServiceGroup(configuration: configuration).run()
    }

    /// The services to run in a `ServiceGroup` (the storage's pool, then the HTTP server, once
    /// the tables are ready); `onListening` hears the bound port.
    public func services(onListening: @escaping @Sendable (Int) async -> Void) -> [any Service] {
        let application = Application(
            router: SyncRoutes.make(service: service),
            configuration: .init(address: .hostname(host, port: port), serverName: "qsdata-sync-server"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        let http = PreparedService(storage: service.storage, application: application)
        return (postgres.map { [$0] } ?? []) + [http]
    }
}

/// Prepares the storage (tables), then runs the HTTP server.
private struct PreparedService<Base: Service>: Service {
    let storage: any SyncStorage
    let application: Base

    func run() async throws {
        try await storage.prepare()
        try await application.run()
    }
}
