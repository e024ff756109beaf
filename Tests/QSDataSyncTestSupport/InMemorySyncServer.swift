import Foundation
import QSDataSync

/// A sync server in memory for the client's tests: one account, records kept as the real
/// server keeps them (``SyncServerRecord``), so a pull returns what changed after its token.
/// Like the real server, it remembers how far each replica has pulled and collects deleted
/// objects' records once every active replica has pulled past them (a replica that has not
/// pulled for ``inactiveAfter`` seconds of ``now`` is not waited for, and is told to pull
/// everything again). Counts requests, and can be told to fail the next ones.
///
/// (The real server, with accounts, storage and HTTP, is its own package, `SyncServer/`.)
public final class InMemorySyncServer: QSSyncTransport, @unchecked Sendable {
    private struct Key: Hashable {
        let table: String
        let id: SyncID
    }

    /// A pull token, `SEQUENCE.COLLECTED`: where the next pull starts, and how far the server had
    /// collected when it made the token (what the real server's tokens say, in their own form).
    private struct Token {
        let sequence: Int64
        let collected: Int64

        /// How far the server may collect while the token stays good.
        var horizon: Int64 { max(sequence, collected) }
        var text: String { "\(sequence).\(collected)" }

        init(sequence: Int64, collected: Int64) {
            self.sequence = sequence
            self.collected = collected
        }

        init?(_ text: String) {
            let parts = text.split(separator: ".").compactMap { Int64($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 0 }) else { return nil }
            self.init(sequence: parts[0], collected: parts[1])
        }
    }

    private let lock = NSLock()
    private var held: [Key: SyncServerRecord] = [:]
    private var sequence: Int64 = 0
    private var collectedThrough: Int64 = 0
    private var replicas: [SyncReplicaID: (position: Int64, seenAt: Date)] = [:]
    private var lastPush: [SyncReplicaID: Int64] = [:]
    /// Blobs by SHA-256: the parts received, whether complete, and the sequence number when they came.
    private var blobs: [String: (parts: [Int: Data], complete: Bool, uploadedAt: Int64)] = [:]
    /// Every blob part received.
    public private(set) var blobPartsReceived = 0
    /// Blobs downloaded.
    public private(set) var blobDownloads = 0
    private var failuresLeft = 0
    public private(set) var pushes: [SyncPushRequest] = []
    public private(set) var pullCount = 0
    /// The server's clock (a simulation's moves by hand).
    public var now: @Sendable () -> Date = { Date() }
    /// How long a replica that has not pulled still holds back collection.
    public var inactiveAfter: TimeInterval = 90 * 24 * 60 * 60

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

    /// How many records the server holds, deleted objects' included.
    public var recordCount: Int {
        lock.withLock { held.count }
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try lock.withLock {
            try failIfAsked()
            pushes.append(request)
            // A push read from a queue before deletions this server has collected since (or with
            // a token it didn't make) could bring them back: refused.
            if let since = request.since, (Token(since)?.horizon ?? -1) < collectedThrough { throw Self.resyncRequired }
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
    }

    /// Returns what changed after the token, leaving out what `replica` wrote; without a token,
    /// everything, the replica's own writes included.
    public func pull(since token: String?, limit: Int, replica: SyncReplicaID? = nil) async throws -> SyncPullResponse {
        try lock.withLock {
            try failIfAsked()
            pullCount += 1
            var start = Token(sequence: 0, collected: 0)
            if let token {
                guard let read = Token(token) else {
                    throw QSSyncError.server(status: 400, code: "invalidToken", message: "not a token of this server")
                }
                start = read
            }
            let after = start.sequence
            if let replica { replicas[replica] = (after, now()) }
            if token != nil, start.horizon < collectedThrough { throw Self.resyncRequired }
            let changed = held.filter { $0.value.sequence > after }.sorted { $0.value.sequence < $1.value.sequence }
            let page = changed.prefix(limit)
            var byTable: [String: [(id: SyncID, record: SyncRecord)]] = [:]
            for (key, entry) in page {
                let record = entry.changes(after: after, leavingOut: token == nil ? nil : replica)
                guard record.created != nil || record.deleted != nil || !record.stamps.isEmpty else { continue }
                byTable[key.table, default: []].append((key.id, record))
            }
            let changes = byTable.sorted { $0.key < $1.key }.flatMap { SyncChange.grouping($0.value, table: $0.key) }
            let last = page.last?.value.sequence ?? after
            let more = changed.count > limit
            if !more { collect() }
            return SyncPullResponse(
                changes: changes, token: Token(sequence: last, collected: collectedThrough).text, more: more,
                lastPush: replica.flatMap { lastPush[$0] })
        }
    }

    public func blobStatus(_ blob: SyncBlobReference) async throws -> SyncBlobStatus {
        try lock.withLock {
            try failIfAsked()
            let held = blobs[blob.sha256]
            return SyncBlobStatus(complete: held?.complete ?? false, parts: held.map { $0.complete ? [] : $0.parts.keys.sorted() } ?? [])
        }
    }

    public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) async throws -> SyncBlobStatus {
        try lock.withLock {
            try failIfAsked()
            let expected = blob.sizeOfPart(index)
            guard (0..<blob.partCount).contains(index), bytes.count == expected else {
                throw QSSyncError.server(status: 400, code: "invalidBlobPart", message: "part \(index) of \(blob) is \(expected) bytes")
            }
            blobPartsReceived += 1
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
    }

    public func downloadBlob(_ blob: SyncBlobReference) async throws -> Data {
        try lock.withLock {
            try failIfAsked()
            guard let held = blobs[blob.sha256], held.complete, let bytes = held.parts[0] else {
                throw QSSyncError.server(status: 404, code: "blobNotFound", message: "no blob \(blob.sha256)")
            }
            blobDownloads += 1
            return bytes
        }
    }

    /// How many complete blobs the server holds.
    public var blobCount: Int {
        lock.withLock { blobs.values.filter(\.complete).count }
    }

    /// Removes what no active replica needs any more, as the real server does after a pull.
    private func collect() {
        let activeSince = now().addingTimeInterval(-inactiveAfter)
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

    private func failIfAsked() throws {
        guard failuresLeft > 0 else { return }
        failuresLeft -= 1
        throw QSSyncError.unreachable("the test's server is down")
    }
}
