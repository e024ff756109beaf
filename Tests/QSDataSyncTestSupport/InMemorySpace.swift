import Foundation
import QSDataSync

/// One space of an ``InMemorySyncServer``: an account's own objects, or a group's, with a
/// sequence of its own, its replicas' places, its collection and its blobs. Called with the
/// server's lock held.
final class Space {
    private struct Key: Hashable {
        let table: String
        let id: SyncID
    }

    /// A pull token, `SEQUENCE.COLLECTED.SINCE[.GROUP]`: where the next pull starts, how far the
    /// space had collected when the token was made, since when its changes count (the first
    /// page's start, until the last page), and the group it is of (what the real server's tokens
    /// say, in their own form).
    private struct Token {
        let sequence: Int64
        let collected: Int64
        let since: Int64
        let group: String?

        /// How far the space may collect while the token stays good.
        var horizon: Int64 { max(sequence, collected) }
        /// A page's token in a pull that began without one (see the server's `PullToken`).
        var continuesAPullWithoutToken: Bool { since == 0 && sequence > 0 }
        var text: String { "\(sequence).\(collected).\(since)" + (group.map { ".\($0)" } ?? "") }

        init(sequence: Int64, collected: Int64, since: Int64, group: String?) {
            self.sequence = sequence
            self.collected = collected
            self.since = since
            self.group = group
        }

        init?(_ text: String) {
            let parts = text.split(separator: ".").map(String.init)
            guard (3...4).contains(parts.count), let sequence = Int64(parts[0]), let collected = Int64(parts[1]), let since = Int64(parts[2]),
                  sequence >= 0, collected >= 0, (0...sequence).contains(since)
            else { return nil }
            self.init(sequence: sequence, collected: collected, since: since, group: parts.count == 4 ? parts[3] : nil)
        }
    }

    private var held: [Key: SyncServerRecord] = [:]
    private var sequence: Int64 = 0
    private var collectedThrough: Int64 = 0
    private(set) var replicas: [SyncReplicaID: (position: Int64, seenAt: Date)] = [:]
    private var lastPush: [SyncReplicaID: Int64] = [:]
    /// Blobs by SHA-256: the parts received, whether complete, and the sequence number when they came.
    private(set) var blobs: [String: (parts: [Int: Data], complete: Bool, uploadedAt: Int64)] = [:]

    /// How many records the space holds, deleted objects' included.
    var recordCount: Int { held.count }

    func existingObjects(in table: String) -> [SyncID: [String: SyncValue]] {
        var objects: [SyncID: [String: SyncValue]] = [:]
        for (key, entry) in held where key.table == table && entry.record.exists { objects[key.id] = entry.record.values }
        return objects
    }

    func push(_ request: SyncPushRequest) throws -> SyncPushResponse {
        // A push read from a queue before deletions this space has collected since (or with a
        // token it didn't make) could bring them back: refused.
        if let since = request.since {
            guard let token = Token(since), token.group == request.group, token.horizon >= collectedThrough else { throw Self.resyncRequired }
        }
        for change in request.changes {
            for case .blobReference(let blob) in change.values.values where blobs[blob.sha256]?.complete != true {
                throw QSSyncError.server(status: 409, code: "blobMissing", message: "upload blob \(blob.sha256) first")
            }
        }
        var applied = 0
        for change in request.changes {
            for id in change.ids {
                var entry = held[Key(table: change.table, id: id)] ?? SyncServerRecord()
                guard entry.merge(change.record, at: sequence + 1) else { continue }
                sequence += 1
                held[Key(table: change.table, id: id)] = entry
                applied += 1
            }
        }
        if let number = request.number { lastPush[request.replica] = max(lastPush[request.replica] ?? 0, number) }
        return SyncPushResponse(received: request.objectCount, applied: applied)
    }

    /// Returns what changed since the pull the token continues began, leaving out what `replica`
    /// wrote; without a token (and in every later page of such a pull), everything, the
    /// replica's own writes included.
    func pull(since token: String?, limit: Int, replica: SyncReplicaID?, group: String?, now: Date, inactiveAfter: TimeInterval) throws -> SyncPullResponse {
        var start = Token(sequence: 0, collected: 0, since: 0, group: group)
        if let token {
            guard let read = Token(token), read.group == group else {
                throw QSSyncError.server(status: 400, code: "invalidToken", message: "not a token of this server")
            }
            start = read
        }
        let after = start.sequence
        if let replica { replicas[replica] = (after, now) }
        if token != nil, start.horizon < collectedThrough { throw Self.resyncRequired }
        let changed = held.filter { $0.value.sequence > after }.sorted { $0.value.sequence < $1.value.sequence }
        let page = changed.prefix(limit)
        // A pull that began without a token (every page of it) brings the replica's own writes too.
        let leftOut = token == nil || start.continuesAPullWithoutToken ? nil : replica
        var byTable: [String: [(id: SyncID, record: SyncRecord)]] = [:]
        for (key, entry) in page {
            let record = entry.changes(after: start.since, leavingOut: leftOut)
            guard record.created != nil || record.deleted != nil || !record.stamps.isEmpty else { continue }
            byTable[key.table, default: []].append((key.id, record))
        }
        let changes = byTable.sorted { $0.key < $1.key }.flatMap { SyncChange.grouping($0.value, table: $0.key) }
        let last = page.last?.value.sequence ?? after
        let more = changed.count > limit
        if !more { collect(activeSince: now.addingTimeInterval(-inactiveAfter)) }
        return SyncPullResponse(
            changes: changes, token: Token(sequence: last, collected: collectedThrough, since: more ? start.since : last, group: group).text, more: more,
            lastPush: replica.flatMap { lastPush[$0] })
    }

    /// Forgets a replica's place: its account left the group.
    func forget(_ replica: SyncReplicaID) {
        replicas[replica] = nil
    }

    func blobStatus(_ blob: SyncBlobReference) -> SyncBlobStatus {
        let held = blobs[blob.sha256]
        return SyncBlobStatus(complete: held?.complete ?? false, parts: held.map { $0.complete ? [] : $0.parts.keys.sorted() } ?? [])
    }

    func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) throws -> SyncBlobStatus {
        let expected = blob.sizeOfPart(index)
        guard (0..<blob.partCount).contains(index), bytes.count == expected else {
            throw QSSyncError.server(status: 400, code: "invalidBlobPart", message: "part \(index) of \(blob) is \(expected) bytes")
        }
        var held = blobs[blob.sha256] ?? ([:], false, sequence)
        guard !held.complete else { return SyncBlobStatus(complete: true, parts: []) }
        held.parts[index] = bytes
        if held.parts.count == blob.partCount {
            let whole = (0..<blob.partCount).reduce(into: Data()) { $0.append(held.parts[$1] ?? Data()) }
            guard SyncBlobReference(of: whole) == blob else {
                blobs[blob.sha256] = nil
                throw QSSyncError.server(status: 400, code: "blobMismatch", message: "the parts of \(blob) have another digest")
            }
            held = ([0: whole], true, sequence)
        }
        blobs[blob.sha256] = held
        return SyncBlobStatus(complete: held.complete, parts: held.complete ? [] : held.parts.keys.sorted())
    }

    func downloadBlob(_ blob: SyncBlobReference) throws -> Data {
        guard let held = blobs[blob.sha256], held.complete, let bytes = held.parts[0] else {
            throw QSSyncError.server(status: 404, code: "blobNotFound", message: "no blob \(blob.sha256)")
        }
        return bytes
    }

    /// Removes what no active replica needs any more, as the real server does after a pull.
    private func collect(activeSince: Date) {
        // With no replica active, none vouches for anything: nothing is collected.
        guard let active = replicas.values.filter({ $0.seenAt >= activeSince }).map(\.position).min() else { return }
        let horizon = min(active, sequence)
        guard horizon > collectedThrough else { return }
        for (key, entry) in held where entry.sequence > collectedThrough && entry.sequence <= horizon {
            held[key] = entry.collected()
        }
        collectedThrough = horizon
        // Blobs no object names, uploaded before every active replica's place.
        var named: Set<String> = []
        for entry in held.values where entry.record.exists {
            for case .blobReference(let blob) in entry.record.values.values { named.insert(blob.sha256) }
        }
        for (hash, blob) in blobs where blob.uploadedAt <= horizon && !named.contains(hash) { blobs[hash] = nil }
    }

    private static let resyncRequired = QSSyncError.server(status: 410, code: "resyncRequired", message: "pull everything again")
}
