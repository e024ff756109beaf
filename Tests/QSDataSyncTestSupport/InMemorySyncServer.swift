import Foundation
import QSDataSync

/// A sync server in memory for the client's tests: records kept as the real server keeps them
/// (``SyncServerRecord``), so a pull returns what changed after its token. Like the real
/// server, it remembers how far each replica has pulled and collects deleted objects' records
/// once every active replica has pulled past them (a replica that has not pulled for
/// ``inactiveAfter`` seconds of ``now`` is not waited for, and is told to pull everything
/// again). Counts requests, and can be told to fail the next ones.
///
/// The server itself is the transport of one account, `me`; ``session(_:)`` is another
/// account's. Groups keep their objects apart, as the real server's do, and only members
/// reach them.
///
/// (The real server, with accounts, storage and HTTP, is its own package, `SyncServer/`.)
public final class InMemorySyncServer: QSSyncTransport, @unchecked Sendable {
    /// The account the server itself is the transport of.
    public static let owner = "me"

    private let lock = NSLock()
    /// Every space's objects: an account's own (by username) and each group's (by ID).
    private var spaces: [SpaceKey: Space] = [:]
    private var groups: [String: SyncGroup] = [:]
    private var failuresLeft = 0
    private var nextGroupNumber = 1
    public private(set) var pushes: [SyncPushRequest] = []
    public private(set) var pullCount = 0
    /// Every blob part received.
    public private(set) var blobPartsReceived = 0
    /// Blobs downloaded.
    public private(set) var blobDownloads = 0
    /// The server's clock (a simulation's moves by hand).
    public var now: @Sendable () -> Date = { Date() }
    /// How long a replica that has not pulled still holds back collection.
    public var inactiveAfter: TimeInterval = 90 * 24 * 60 * 60

    public init() {}

    /// The transport of account `username` (made when first named).
    public func session(_ username: String) -> Session {
        Session(server: self, account: username)
    }

    /// Fails the next `count` requests as an unreachable server would.
    public func failNext(_ count: Int) {
        lock.withLock { failuresLeft = count }
    }

    /// Every object the server holds that exists, by table, with its values: of an account's
    /// own (the owner's unless told), or of `group`.
    public func existingObjects(in table: String, group: String? = nil, account: String = InMemorySyncServer.owner) -> [SyncID: [String: SyncValue]] {
        lock.withLock { space(account, group).existingObjects(in: table) }
    }

    /// How many records the server holds of the owner's account, deleted objects' included.
    public var recordCount: Int {
        lock.withLock { space(Self.owner, nil).recordCount }
    }

    /// How many complete blobs the server holds for the owner's account.
    public var blobCount: Int {
        lock.withLock { space(Self.owner, nil).blobs.values.filter(\.complete).count }
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try push(request, as: Self.owner)
    }

    public func pull(since token: String?, limit: Int, replica: SyncReplicaID? = nil) async throws -> SyncPullResponse {
        try pull(since: token, limit: limit, replica: replica, group: nil, as: Self.owner)
    }

    public func pull(since token: String?, limit: Int, replica: SyncReplicaID?, group: String?) async throws -> SyncPullResponse {
        try pull(since: token, limit: limit, replica: replica, group: group, as: Self.owner)
    }

    public func blobStatus(_ blob: SyncBlobReference, group: String?) async throws -> SyncBlobStatus {
        try blobStatus(blob, group: group, as: Self.owner)
    }

    public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data, group: String?) async throws -> SyncBlobStatus {
        try uploadBlobPart(blob, index: index, bytes: bytes, group: group, as: Self.owner)
    }

    public func downloadBlob(_ blob: SyncBlobReference, group: String?) async throws -> Data {
        try downloadBlob(blob, group: group, as: Self.owner)
    }

    public func blobStatus(_ blob: SyncBlobReference) async throws -> SyncBlobStatus { try blobStatus(blob, group: nil, as: Self.owner) }
    public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) async throws -> SyncBlobStatus {
        try uploadBlobPart(blob, index: index, bytes: bytes, group: nil, as: Self.owner)
    }
    public func downloadBlob(_ blob: SyncBlobReference) async throws -> Data { try downloadBlob(blob, group: nil, as: Self.owner) }
    public func groups() async throws -> [SyncGroup] { try groups(of: Self.owner) }
    public func createGroup(named name: String) async throws -> SyncGroup { try createGroup(named: name, by: Self.owner) }
    public func addMember(_ username: String, to group: String) async throws -> SyncGroup { try addMember(username, to: group, by: Self.owner) }
    public func removeMember(_ username: String, from group: String) async throws -> SyncGroup {
        try removeMember(username, from: group, by: Self.owner)
    }

    // MARK: The calls, as an account makes them

    func push(_ request: SyncPushRequest, as account: String) throws -> SyncPushResponse {
        try lock.withLock {
            try failIfAsked()
            pushes.append(request)
            return try memberSpace(account, request.group).push(request)
        }
    }

    func pull(since token: String?, limit: Int, replica: SyncReplicaID?, group: String?, as account: String) throws -> SyncPullResponse {
        try lock.withLock {
            try failIfAsked()
            pullCount += 1
            return try memberSpace(account, group).pull(since: token, limit: limit, replica: replica, group: group, now: now(), inactiveAfter: inactiveAfter)
        }
    }

    func blobStatus(_ blob: SyncBlobReference, group: String?, as account: String) throws -> SyncBlobStatus {
        try lock.withLock {
            try failIfAsked()
            return try memberSpace(account, group).blobStatus(blob)
        }
    }

    func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data, group: String?, as account: String) throws -> SyncBlobStatus {
        try lock.withLock {
            try failIfAsked()
            blobPartsReceived += 1
            return try memberSpace(account, group).uploadBlobPart(blob, index: index, bytes: bytes)
        }
    }

    func downloadBlob(_ blob: SyncBlobReference, group: String?, as account: String) throws -> Data {
        try lock.withLock {
            try failIfAsked()
            let bytes = try memberSpace(account, group).downloadBlob(blob)
            blobDownloads += 1
            return bytes
        }
    }

    func groups(of account: String) throws -> [SyncGroup] {
        try lock.withLock {
            try failIfAsked()
            return groups.values.filter { $0.members.contains(account) }.sorted { $0.id < $1.id }
        }
    }

    func createGroup(named name: String, by account: String) throws -> SyncGroup {
        try lock.withLock {
            try failIfAsked()
            let id = String(format: "%032x", nextGroupNumber)
            nextGroupNumber += 1
            let group = SyncGroup(id: id, name: name, owner: account, members: [account])
            groups[id] = group
            return group
        }
    }

    func addMember(_ username: String, to id: String, by account: String) throws -> SyncGroup {
        try lock.withLock {
            try failIfAsked()
            guard var group = groups[id], group.members.contains(account) else { throw Self.notAMember(id) }
            guard group.owner == account else { throw QSSyncError.server(status: 403, code: "notGroupOwner", message: "only the owner adds members") }
            if !group.members.contains(username) { group.members = (group.members + [username]).sorted() }
            groups[id] = group
            return group
        }
    }

    func removeMember(_ username: String, from id: String, by account: String) throws -> SyncGroup {
        try lock.withLock {
            try failIfAsked()
            guard var group = groups[id], group.members.contains(account) else { throw Self.notAMember(id) }
            guard group.owner == account || username == account else {
                throw QSSyncError.server(status: 403, code: "notGroupOwner", message: "only the owner takes others out")
            }
            guard username != group.owner else { throw QSSyncError.server(status: 409, code: "ownerCannotLeave", message: "the owner can't leave") }
            group.members.removeAll { $0 == username }
            groups[id] = group
            // The member's replicas no longer hold back the group's collection.
            let groupSpace = space(account, id)
            for replica in space(username, nil).replicas.keys { groupSpace.forget(replica) }
            return group
        }
    }

    // MARK: Spaces

    private struct SpaceKey: Hashable {
        let account: String?
        let group: String?
    }

    /// The space of `group` (the account's own without one), refused unless the account is a member.
    private func memberSpace(_ account: String, _ group: String?) throws -> Space {
        if let group {
            guard groups[group]?.members.contains(account) == true else {
                if groups[group] == nil { throw QSSyncError.server(status: 404, code: "groupNotFound", message: "no group \(group)") }
                throw Self.notAMember(group)
            }
        }
        return space(account, group)
    }

    /// The space of `group`, whoever asks; without one, `account`'s own.
    private func space(_ account: String, _ group: String?) -> Space {
        let key = group.map { SpaceKey(account: nil, group: $0) } ?? SpaceKey(account: account, group: nil)
        if let space = spaces[key] { return space }
        let space = Space()
        spaces[key] = space
        return space
    }

    private static func notAMember(_ group: String) -> QSSyncError {
        QSSyncError.server(status: 403, code: "notAMember", message: "not a member of group \(group)")
    }

    private func failIfAsked() throws {
        guard failuresLeft > 0 else { return }
        failuresLeft -= 1
        throw QSSyncError.unreachable("the test's server is down")
    }

    /// The transport of one account of an ``InMemorySyncServer``.
    public struct Session: QSSyncTransport {
        let server: InMemorySyncServer
        public let account: String

        public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse { try server.push(request, as: account) }
        public func pull(since token: String?, limit: Int, replica: SyncReplicaID?) async throws -> SyncPullResponse {
            try server.pull(since: token, limit: limit, replica: replica, group: nil, as: account)
        }
        public func pull(since token: String?, limit: Int, replica: SyncReplicaID?, group: String?) async throws -> SyncPullResponse {
            try server.pull(since: token, limit: limit, replica: replica, group: group, as: account)
        }
        public func blobStatus(_ blob: SyncBlobReference) async throws -> SyncBlobStatus { try server.blobStatus(blob, group: nil, as: account) }
        public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) async throws -> SyncBlobStatus {
            try server.uploadBlobPart(blob, index: index, bytes: bytes, group: nil, as: account)
        }
        public func downloadBlob(_ blob: SyncBlobReference) async throws -> Data { try server.downloadBlob(blob, group: nil, as: account) }
        public func blobStatus(_ blob: SyncBlobReference, group: String?) async throws -> SyncBlobStatus {
            try server.blobStatus(blob, group: group, as: account)
        }
        public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data, group: String?) async throws -> SyncBlobStatus {
            try server.uploadBlobPart(blob, index: index, bytes: bytes, group: group, as: account)
        }
        public func downloadBlob(_ blob: SyncBlobReference, group: String?) async throws -> Data {
            try server.downloadBlob(blob, group: group, as: account)
        }
        public func groups() async throws -> [SyncGroup] { try server.groups(of: account) }
        public func createGroup(named name: String) async throws -> SyncGroup { try server.createGroup(named: name, by: account) }
        public func addMember(_ username: String, to group: String) async throws -> SyncGroup { try server.addMember(username, to: group, by: account) }
        public func removeMember(_ username: String, from group: String) async throws -> SyncGroup {
            try server.removeMember(username, from: group, by: account)
        }
    }
}
