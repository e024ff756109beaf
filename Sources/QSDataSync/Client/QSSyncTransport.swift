import Foundation

/// How a ``QSSync`` reaches its server: the calls of the sync protocol. QSData's own is
/// ``QSSyncHTTPTransport`` (URLSession); an app with another HTTP client implements push and
/// pull (and the blob calls, when its model syncs blobs; the group calls and the calls that
/// name a group, when it shares objects in groups), sending the bodies as
/// `Docs/SyncProtocol.md` says.
public protocol QSSyncTransport: Sendable {
    /// `POST /v1/push`.
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse
    /// `GET /v1/pull?since=TOKEN&limit=N&replica=ID` (no `since` for everything). The server may
    /// leave out what `replica` itself wrote: that replica has it already.
    func pull(since token: String?, limit: Int, replica: SyncReplicaID?) async throws -> SyncPullResponse
    /// `GET /v1/blobs/SHA256/parts?size=N`: what the server holds of a blob.
    func blobStatus(_ blob: SyncBlobReference) async throws -> SyncBlobStatus
    /// `PUT /v1/blobs/SHA256/parts/INDEX?size=N`: one part of a blob's bytes.
    func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) async throws -> SyncBlobStatus
    /// `GET /v1/blobs/SHA256?size=N`: a blob's bytes.
    func downloadBlob(_ blob: SyncBlobReference) async throws -> Data

    /// `GET /v1/pull?…&group=ID`: a pull of the group's objects (the account's own without one).
    func pull(since token: String?, limit: Int, replica: SyncReplicaID?, group: String?) async throws -> SyncPullResponse
    /// The blob calls with `&group=ID`: the bytes a group's objects name are the group's.
    func blobStatus(_ blob: SyncBlobReference, group: String?) async throws -> SyncBlobStatus
    func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data, group: String?) async throws -> SyncBlobStatus
    func downloadBlob(_ blob: SyncBlobReference, group: String?) async throws -> Data
    /// `GET /v1/groups`: the groups the account belongs to.
    func groups() async throws -> [SyncGroup]
    /// `POST /v1/groups`: makes a group, owned by the account.
    func createGroup(named name: String) async throws -> SyncGroup
    /// `PUT /v1/groups/ID/members/USERNAME`: the owner adds a member.
    func addMember(_ username: String, to group: String) async throws -> SyncGroup
    /// `DELETE /v1/groups/ID/members/USERNAME`: the owner takes a member out, or a member leaves.
    func removeMember(_ username: String, from group: String) async throws -> SyncGroup
}

extension QSSyncTransport {
    /// A transport written before blobs syncs every model without synced blobs.
    public func blobStatus(_ blob: SyncBlobReference) async throws -> SyncBlobStatus { throw QSSyncError.blobsUnsupported }
    public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) async throws -> SyncBlobStatus { throw QSSyncError.blobsUnsupported }
    public func downloadBlob(_ blob: SyncBlobReference) async throws -> Data { throw QSSyncError.blobsUnsupported }

    /// A transport written before groups syncs every model whose objects belong to no group.
    public func pull(since token: String?, limit: Int, replica: SyncReplicaID?, group: String?) async throws -> SyncPullResponse {
        guard group == nil else { throw QSSyncError.groupsUnsupported }
        return try await pull(since: token, limit: limit, replica: replica)
    }
    public func blobStatus(_ blob: SyncBlobReference, group: String?) async throws -> SyncBlobStatus {
        guard group == nil else { throw QSSyncError.groupsUnsupported }
        return try await blobStatus(blob)
    }
    public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data, group: String?) async throws -> SyncBlobStatus {
        guard group == nil else { throw QSSyncError.groupsUnsupported }
        return try await uploadBlobPart(blob, index: index, bytes: bytes)
    }
    public func downloadBlob(_ blob: SyncBlobReference, group: String?) async throws -> Data {
        guard group == nil else { throw QSSyncError.groupsUnsupported }
        return try await downloadBlob(blob)
    }
    public func groups() async throws -> [SyncGroup] { throw QSSyncError.groupsUnsupported }
    public func createGroup(named name: String) async throws -> SyncGroup { throw QSSyncError.groupsUnsupported }
    public func addMember(_ username: String, to group: String) async throws -> SyncGroup { throw QSSyncError.groupsUnsupported }
    public func removeMember(_ username: String, from group: String) async throws -> SyncGroup { throw QSSyncError.groupsUnsupported }
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
    /// The model syncs blobs and the transport has no blob calls.
    case blobsUnsupported
    /// A downloaded blob's bytes are not the ones its reference names.
    case blobMismatch(SyncBlobReference)
    /// The model shares objects in groups and the transport has no group calls.
    case groupsUnsupported
    /// A save changed the group of an object that syncs (its type's `syncGroup` property): an
    /// object stays in the group it was made in; copy it to share it elsewhere.
    case groupChanged(table: String, id: String)
    /// A pulled change carries a stamp further ahead of this device's clock than the server
    /// accepts a stamp ahead of its own (``SyncProtocol/stampLeeway``): the server's data is
    /// damaged, or this device's clock is far behind. Nothing of the page that carried it was
    /// applied; the next sync asks for it again.
    case stampTooFarAhead(table: String, id: String, stamp: String)
    /// This replica's clock reads the last stamp there is, so it can make no later one and
    /// stamps nothing: the save that needed a stamp fails. Only a damaged file (or one written
    /// by a version that took any stamp it pulled) holds such a reading.
    case clockExhausted(reading: String)

    public var description: String {
        switch self {
        case .nothingSynced: "the data model marks no type synced (<key>synced</key><true/>)"
        case .server(let status, let code, let message): "the sync server answered \(status) \(code): \(message)"
        case .unreadableResponse(let problem): "the sync server's answer could not be read: \(problem)"
        case .unreachable(let problem): "the sync server could not be reached: \(problem)"
        case .blobsUnsupported: "the sync transport doesn't carry blobs: implement QSSyncTransport's blob calls"
        case .blobMismatch(let blob): "the bytes downloaded for blob \(blob) have another digest or size"
        case .groupsUnsupported: "the sync transport doesn't carry groups: implement QSSyncTransport's group calls"
        case .groupChanged(let table, let id):
            "the save moved \(table) \(id) to another group; an object stays in the group it was made in (copy it to share it elsewhere)"
        case .stampTooFarAhead(let table, let id, let stamp):
            "the sync server sent \(table) \(id) stamped \(stamp), more than two days ahead of this device's clock: the server's data or this device's clock is wrong"
        case .clockExhausted(let reading):
            "the sync clock reads \(reading), the last stamp there is: no later one can be made, so the change can't be stamped"
        case .syncedPropertyRemoved(let table, let property):
            property == "*"
                ? "the table \(table) synced before and doesn't now: name it removed (\"*\") in QSSyncSchemaChanges"
                : "\(table).\(property) synced before and isn't in the model now: name it renamed or removed in QSSyncSchemaChanges"
        }
    }
}
