import Foundation
import QSDataSync

/// A transport that counts sync's requests and the JSON bytes of their bodies both ways (the
/// group calls an app makes itself, to make and manage groups, are passed on uncounted).
final class CountingTransport: QSSyncTransport, @unchecked Sendable {
    let base: any QSSyncTransport
    private let lock = NSLock()
    private(set) var requests = 0
    private(set) var bytesUp = 0
    private(set) var bytesDown = 0

    init(_ base: any QSSyncTransport) {
        self.base = base
    }

    func reset() {
        lock.withLock { (requests, bytesUp, bytesDown) = (0, 0, 0) }
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let size = try SyncProtocol.makeEncoder().encode(request).count
        let response = try await base.push(request)
        let answer = try SyncProtocol.makeEncoder().encode(response).count
        lock.withLock { requests += 1; bytesUp += size; bytesDown += answer }
        return response
    }

    func pull(since token: String?, limit: Int, replica: SyncReplicaID?) async throws -> SyncPullResponse {
        try await pull(since: token, limit: limit, replica: replica, group: nil)
    }

    func pull(since token: String?, limit: Int, replica: SyncReplicaID?, group: String?) async throws -> SyncPullResponse {
        let response = try await base.pull(since: token, limit: limit, replica: replica, group: group)
        let size = try SyncProtocol.makeEncoder().encode(response).count
        lock.withLock { requests += 1; bytesDown += size; bytesUp += (token?.count ?? 0) + (group?.count ?? 0) + 40 }
        return response
    }

    func groups() async throws -> [SyncGroup] {
        let groups = try await base.groups()
        let size = try SyncProtocol.makeEncoder().encode(SyncGroupList(groups: groups)).count
        lock.withLock { requests += 1; bytesDown += size }
        return groups
    }

    func createGroup(named name: String) async throws -> SyncGroup { try await base.createGroup(named: name) }
    func addMember(_ username: String, to group: String) async throws -> SyncGroup { try await base.addMember(username, to: group) }
    func removeMember(_ username: String, from group: String) async throws -> SyncGroup { try await base.removeMember(username, from: group) }

    var summary: String {
        lock.withLock { "\(requests) requests, \(Self.bytes(bytesUp)) up, \(Self.bytes(bytesDown)) down" }
    }

    static func bytes(_ count: Int) -> String {
        count > 1_048_576 ? String(format: "%.1f MiB", Double(count) / 1_048_576) : count > 1024 ? String(format: "%.1f KiB", Double(count) / 1024) : "\(count) B"
    }
}
