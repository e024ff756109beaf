import Foundation
import Logging
import PostgresNIO
import QSData

/// A fresh, empty schema on a PostgreSQL server, for tests: servers started on ``database``
/// share it (several instances on one database), ``rows(_:)`` reads it back, ``drop()`` removes it.
///
/// ```swift
/// let schema = try await VesperTestSchema.create(serverURL: "postgres://postgres@127.0.0.1:54321/postgres")
/// let server = try await VesperTestServer.start(.init(database: schema.database, attachmentsPath: "", secret: "s"))
/// ```
public final class VesperTestSchema: Sendable {
    /// The server's URL with the schema as its search path.
    public let database: VesperDatabase
    public let name: String
    private let client: PostgresClient
    private let connections: Task<Void, Never>
    private let logger = Logger(label: "vesper-test-schema")

    private init(database: VesperDatabase, name: String, client: PostgresClient, connections: Task<Void, Never>) {
        self.database = database
        self.name = name
        self.client = client
        self.connections = connections
    }

    public static func create(serverURL: String) async throws -> VesperTestSchema {
        let client = PostgresClient(configuration: try VesperDatabase.postgresConfiguration(serverURL))
        let connections = Task { await client.run() }
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        do {
            try await client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(name)"))
        } catch {
            connections.cancel()
            throw error
        }
        let separator = serverURL.contains("?") ? "&" : "?"
        return VesperTestSchema(
            database: .postgres(url: serverURL + separator + "schema=" + name), name: name, client: client,
            connections: connections)
    }

    /// Raw SQL in the schema, each value as an `SQLValue` (booleans as 0 and 1).
    public func rows(_ sql: String) async throws -> [[SQLValue]] {
        try await client.withConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(name)"), logger: logger)
            var result: [[SQLValue]] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {
                result.append(try row.map(Self.value))
            }
            return result
        }
    }

    /// Drops the schema and everything in it, and closes the connections.
    public func drop() async throws {
        defer { connections.cancel() }
        try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(name) CASCADE"))
    }

    private static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea: return .blob(Data(try cell.decode(ByteBuffer.self).readableBytesView))
        default: return .text(try cell.decode(String.self))
        }
    }
}
