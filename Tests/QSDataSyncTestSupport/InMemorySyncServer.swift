import Foundation
import QSDataSync

/// A sync server in memory for the client's tests: one account, records merged with the
/// protocol's merge function, each part numbered when it changes so a pull returns what
/// changed after its token. Counts requests, and can be told to fail the next ones.
///
/// (The real server, with accounts, storage and HTTP, is its own package, `SyncServer/`.)
public final class InMemorySyncServer: QSSyncTransport, @unchecked Sendable {
    private struct Key: Hashable {
        let table: String
        let id: SyncID
    }

    /// A record and the number each of its parts last changed at.
    private struct Held {
        var record = SyncRecord()
        var createdAt: Int64 = 0
        var deletedAt: Int64 = 0
        var partsAt: [String: Int64] = [:]
        var latest: Int64 = 0
    }

    private let lock = NSLock()
    private var held: [Key: Held] = [:]
    private var sequence: Int64 = 0
    private var failuresLeft = 0
    public private(set) var pushes: [SyncPushRequest] = []
    public private(set) var pullCount = 0

    public init() {}

    /// Fails the next `count` requests as an unreachable server would.
    public func failNext(_ count: Int) {
        lock.withLock { failuresLeft = count }
    }

    /// Every object the server holds that exists, by table, with its values.
    public func existingObjects(in table: String) -> [SyncID: [String: SyncValue]] {
        lock.withLock {
            var objects: [SyncID: [String: SyncValue]] = [:]
            for (key, entry) in held where key.table == table && entry.record.exists { objects[key.id] = entry.record.values }
            return objects
        }
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try lock.withLock {
            try failIfAsked()
            pushes.append(request)
            var applied = 0
            for change in request.changes {
                for id in change.ids {
                    var entry = held[Key(table: change.table, id: id)] ?? Held()
                    let outcome = entry.record.merge(change.record)
                    guard outcome.changedAnything else { continue }
                    sequence += 1
                    if outcome.tookCreation { entry.createdAt = sequence }
                    if outcome.tookDeletion { entry.deletedAt = sequence }
                    for part in outcome.tookProperties { entry.partsAt[part] = sequence }
                    entry.latest = sequence
                    held[Key(table: change.table, id: id)] = entry
                    applied += 1
                }
            }
            return SyncPushResponse(received: request.objectCount, applied: applied)
        }
    }

    /// Returns everything that changed, the replica's own writes included (which the protocol
    /// allows, and which tests the client's merging of what it already has).
    public func pull(since token: String?, limit: Int, replica: SyncReplicaID? = nil) async throws -> SyncPullResponse {
        try lock.withLock {
            try failIfAsked()
            pullCount += 1
            var after: Int64 = 0
            if let token {
                guard let number = Int64(token), number >= 0 else {
                    throw QSSyncError.server(status: 400, code: "invalidToken", message: "not a token of this server")
                }
                after = number
            }
            let changed = held.filter { $0.value.latest > after }.sorted { $0.value.latest < $1.value.latest }
            let page = changed.prefix(limit)
            var byTable: [String: [(id: SyncID, record: SyncRecord)]] = [:]
            for (key, entry) in page {
                var record = SyncRecord()
                if entry.createdAt > after { record.created = entry.record.created }
                if entry.deletedAt > after { record.deleted = entry.record.deleted }
                for (part, at) in entry.partsAt where at > after && entry.record.exists {
                    record.stamps[part] = entry.record.stamps[part]
                    record.values[part] = entry.record.values[part]
                }
                byTable[key.table, default: []].append((key.id, record))
            }
            let changes = byTable.sorted { $0.key < $1.key }.flatMap { SyncChange.grouping($0.value, table: $0.key) }
            let last = page.last?.value.latest ?? after
            return SyncPullResponse(changes: changes, token: String(last), more: changed.count > limit)
        }
    }

    private func failIfAsked() throws {
        guard failuresLeft > 0 else { return }
        failuresLeft -= 1
        throw QSSyncError.unreachable("the test's server is down")
    }
}
