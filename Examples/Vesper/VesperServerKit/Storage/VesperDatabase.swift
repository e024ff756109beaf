import Foundation
import PostgresNIO

/// Where the server keeps its data.
///
/// ```swift
/// VesperDatabase("/var/lib/vesper/vesper.sqlite")                        // .sqlite
/// VesperDatabase("postgres://vesper:secret@db.internal:5432/vesper")     // .postgres
/// ```
public enum VesperDatabase: Sendable, Equatable, CustomStringConvertible {
    /// One SQLite file, for a single instance; attachment bytes go to files.
    case sqlite(path: String)
    /// A PostgreSQL database, shared by any number of instances; attachment bytes go to the
    /// database too. `postgres://user:password@host:port/database`, with optional query items
    /// `sslmode` (`disable`, `prefer` — the default — or `require`), `schema` (the search path)
    /// and `pool_size` (connections per instance, 20 by default).
    case postgres(url: String)

    /// A `postgres://` or `postgresql://` URL names PostgreSQL; anything else is a SQLite path.
    public init(_ argument: String) {
        let lowered = argument.lowercased()
        self = lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
            ? .postgres(url: argument) : .sqlite(path: argument)
    }

    /// The location without its password, for logs.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            if components.password != nil { components.password = "…" }
            return components.string ?? "postgres://…"
        }
    }

    /// The connection-pool configuration a `postgres://` URL describes; with a statement
    /// timeout, PostgreSQL itself cancels any statement that runs longer.
    static func postgresConfiguration(_ url: String, statementTimeout: Duration? = nil) throws(VesperServerError)
        -> PostgresClient.Configuration
    {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw .invalidDatabaseURL("it has no host")
        }
        guard let username = components.user, !username.isEmpty else { throw .invalidDatabaseURL("it has no user") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let items = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let tls: PostgresClient.Configuration.TLS
        switch items["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        case let other: throw .invalidDatabaseURL("sslmode \(other) is not disable, prefer or require")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: username, password: components.password,
            database: database.isEmpty ? nil : database, tls: tls)
        // No keep-alive queries. In postgres-nio's pool (1.33) a connection running its
        // keep-alive counts as "soon available", so a lease request that arrives meanwhile is
        // queued without a new connection being opened for it; if the keep-alive then ends by
        // closing the connection, the pool opens a replacement only below its minimum count
        // (zero here) and the request waits with nothing to serve it — the "no connection, no
        // timer, one waiter" hang the tests once met. Idle connections are closed after a minute
        // anyway, and a connection that died while idle fails its next query (a 503 the client
        // retries) instead of stranding it.
        configuration.options.keepAliveBehavior = nil
        if let statementTimeout {
            let milliseconds = statementTimeout.components.seconds * 1000 + statementTimeout.components.attoseconds / 1_000_000_000_000_000
            configuration.options.additionalStartupParameters.append(("statement_timeout", String(milliseconds)))
        }
        if let schema = items["schema"], !schema.isEmpty {
            configuration.options.additionalStartupParameters.append(("search_path", schema))
        }
        if let poolSize = items["pool_size"] {
            guard let size = Int(poolSize), size > 0 else { throw .invalidDatabaseURL("pool_size must be positive") }
            configuration.options.maximumConnections = size
        }
        return configuration
    }
}
