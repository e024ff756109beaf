/// How a ``QSSync`` reaches its server: the two calls of the sync protocol. QSData's own is
/// ``QSSyncHTTPTransport`` (URLSession); an app with another HTTP client implements these two,
/// sending the bodies as `Docs/SyncProtocol.md` says.
public protocol QSSyncTransport: Sendable {
    /// `POST /v1/push`.
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse
    /// `GET /v1/pull?since=TOKEN&limit=N&replica=ID` (no `since` for everything). The server may
    /// leave out what `replica` itself wrote: that replica has it already.
    func pull(since token: String?, limit: Int, replica: SyncReplicaID?) async throws -> SyncPullResponse
}

/// Why sync failed.
public enum QSSyncError: Error, Equatable, CustomStringConvertible {
    /// The store's data model marks no type `synced`: there is nothing to sync.
    case nothingSynced
    /// The server answered with an error (see the protocol's error codes).
    case server(status: Int, code: String, message: String)
    /// The server's answer could not be read as the protocol's.
    case unreadableResponse(String)
    /// The server could not be reached.
    case unreachable(String)
    /// A property or relationship (`*`: the whole table) the file synced before is not synced
    /// by the model now, and ``QSSyncSchemaChanges`` doesn't say it was renamed or removed.
    case syncedPropertyRemoved(table: String, property: String)

    public var description: String {
        switch self {
        case .nothingSynced: "the data model marks no type synced (<key>synced</key><true/>)"
        case .server(let status, let code, let message): "the sync server answered \(status) \(code): \(message)"
        case .unreadableResponse(let problem): "the sync server's answer could not be read: \(problem)"
        case .unreachable(let problem): "the sync server could not be reached: \(problem)"
        case .syncedPropertyRemoved(let table, let property):
            property == "*"
                ? "the table \(table) synced before and doesn't now: name it removed (\"*\") in QSSyncSchemaChanges"
                : "\(table).\(property) synced before and isn't in the model now: name it renamed or removed in QSSyncSchemaChanges"
        }
    }
}
