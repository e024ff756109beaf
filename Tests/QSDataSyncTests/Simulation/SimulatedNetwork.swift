import Foundation
import QSDataSync
import QSDataSyncTestSupport

/// The network between the simulated replicas and the server, misbehaving as the seed says:
/// requests lost, answers lost after the server acted, requests delivered twice, pushes held
/// back and delivered later (after newer ones), and replicas cut off by a partition.
///
/// Everything happens on the main actor, one request at a time, in the order the simulation
/// makes them: given the seed, a run repeats exactly.
@MainActor
final class SimulatedNetwork {
    let server = InMemorySyncServer()
    private var random: SeededGenerator
    /// Replicas that can't reach the server.
    var partitioned: Set<Int> = []
    /// Whether requests go wrong at all (the network heals at the end).
    var misbehaves = true
    /// Pushes delivered late, in the order held.
    private var heldPushes: [SyncPushRequest] = []
    private(set) var log: [String] = []

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed ^ 0x6E65_7477_6F72_6B00)
    }

    func push(from replica: Int, _ request: SyncPushRequest) async throws -> SyncPushResponse {
        if partitioned.contains(replica) { throw lost("push from \(replica): partitioned") }
        guard misbehaves else { return try await server.push(request) }
        switch random.next() % 10 {
        case 0:
            throw lost("push from \(replica): request lost")
        case 1:
            _ = try await server.push(request)
            throw lost("push from \(replica): answer lost")
        case 2:
            _ = try await server.push(request)
            log.append("push from \(replica): delivered twice")
            return try await server.push(request)
        case 3:
            heldPushes.append(request)
            throw lost("push from \(replica): held back")
        default:
            return try await server.push(request)
        }
    }

    func pull(from replica: Int, since token: String?, limit: Int, replicaID: SyncReplicaID?) async throws -> SyncPullResponse {
        if partitioned.contains(replica) { throw lost("pull from \(replica): partitioned") }
        if misbehaves, random.next() % 8 == 0 { throw lost("pull from \(replica): answer lost") }
        return try await server.pull(since: token, limit: limit, replica: replicaID)
    }

    /// A blob call: cut off like any other, and while misbehaving one in six is lost (an upload
    /// either before the server took the part or after: a device killed mid-upload).
    func blob<Answer>(from replica: Int, _ what: String, _ call: () async throws -> Answer) async throws -> Answer {
        if partitioned.contains(replica) { throw lost("\(what) from \(replica): partitioned") }
        guard misbehaves else { return try await call() }
        switch random.next() % 12 {
        case 0: throw lost("\(what) from \(replica): request lost")
        case 1:
            _ = try await call()
            throw lost("\(what) from \(replica): answer lost")
        default: return try await call()
        }
    }

    /// Stops misbehaving, delivers what it held back, and has every replica sync in turn until
    /// a whole round sends nothing and nothing waits (a merge may make edits of its own, a
    /// duplicate's deletion say, which the others need): at most five rounds. `note` hears each sync's report.
    func heal(syncing syncs: [QSSync], note: (_ round: Int, _ replica: Int, QSSyncReport) -> Void) async throws {
        misbehaves = false
        partitioned = []
        try await deliverHeldPushes()
        for round in 1...5 {
            var pushed = 0
            for (index, sync) in syncs.enumerated() {
                let report = try await sync.sync()
                pushed += report.pushedObjects
                note(round, index, report)
            }
            var waiting = 0
            for sync in syncs { waiting += try await sync.waitingCount() }
            if pushed == 0, waiting == 0, round > 1 { return }
        }
    }

    /// Delivers the held pushes, newest first.
    func deliverHeldPushes() async throws {
        let held = heldPushes
        heldPushes = []
        for request in held.reversed() {
            log.append("a held push of \(request.objectCount) objects arrives late")
            do {
                _ = try await server.push(request)
            } catch QSSyncError.server(status: 410, code: "resyncRequired", _) {
                // Built before deletions the server has collected since: refused, as it must be.
                log.append("the late push is refused: resync required")
            }
        }
    }

    private func lost(_ what: String) -> QSSyncError {
        log.append(what)
        return .unreachable(what)
    }
}

/// One replica's way to the server, through the simulated network.
struct SimulatedLink: QSSyncTransport {
    let replica: Int
    let network: SimulatedNetwork

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try await network.push(from: replica, request)
    }

    func pull(since token: String?, limit: Int, replica replicaID: SyncReplicaID?) async throws -> SyncPullResponse {
        try await network.pull(from: replica, since: token, limit: limit, replicaID: replicaID)
    }

    func blobStatus(_ blob: SyncBlobReference) async throws -> SyncBlobStatus {
        try await network.blob(from: replica, "blob status") { try await network.server.blobStatus(blob) }
    }

    func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) async throws -> SyncBlobStatus {
        try await network.blob(from: replica, "blob part \(index)") { try await network.server.uploadBlobPart(blob, index: index, bytes: bytes) }
    }

    func downloadBlob(_ blob: SyncBlobReference) async throws -> Data {
        try await network.blob(from: replica, "blob download") { try await network.server.downloadBlob(blob) }
    }
}
