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
    /// Pushes delivered late, in the order held, each with the account that sent it.
    private var heldPushes: [(request: SyncPushRequest, account: InMemorySyncServer.Session)] = []
    private(set) var log: [String] = []

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed ^ 0x6E65_7477_6F72_6B00)
    }

    func push(from replica: Int, as account: InMemorySyncServer.Session, _ request: SyncPushRequest) async throws -> SyncPushResponse {
        if partitioned.contains(replica) { throw lost("push from \(replica): partitioned") }
        guard misbehaves else { return try await account.push(request) }
        switch random.next() % 10 {
        case 0:
            throw lost("push from \(replica): request lost")
        case 1:
            _ = try await account.push(request)
            throw lost("push from \(replica): answer lost")
        case 2:
            _ = try await account.push(request)
            log.append("push from \(replica): delivered twice")
            return try await account.push(request)
        case 3:
            heldPushes.append((request, account))
            throw lost("push from \(replica): held back")
        default:
            return try await account.push(request)
        }
    }

    func pull(
        from replica: Int, as account: InMemorySyncServer.Session, since token: String?, limit: Int, replicaID: SyncReplicaID?, group: String?
    ) async throws -> SyncPullResponse {
        if partitioned.contains(replica) { throw lost("pull from \(replica): partitioned") }
        if misbehaves, random.next() % 8 == 0 { throw lost("pull from \(replica): answer lost") }
        return try await account.pull(since: token, limit: limit, replica: replicaID, group: group)
    }

    /// The account's groups: lost like a pull.
    func groups(from replica: Int, as account: InMemorySyncServer.Session) async throws -> [SyncGroup] {
        if partitioned.contains(replica) { throw lost("groups from \(replica): partitioned") }
        if misbehaves, random.next() % 8 == 0 { throw lost("groups from \(replica): answer lost") }
        return try await account.groups()
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
        for (request, account) in held.reversed() {
            log.append("a held push of \(request.objectCount) objects arrives late")
            do {
                _ = try await account.push(request)
            } catch QSSyncError.server(status: 410, code: "resyncRequired", _) {
                // Built before deletions the server has collected since: refused, as it must be.
                log.append("the late push is refused: resync required")
            } catch QSSyncError.server(status: 403, code: "notAMember", _) {
                // Sent by a member taken out of the group since: refused, as it must be.
                log.append("the late push is refused: not a member")
            }
        }
    }

    private func lost(_ what: String) -> QSSyncError {
        log.append(what)
        return .unreachable(what)
    }
}

/// One replica's way to the server, through the simulated network, as one account (the
/// server's own, unless told). Group membership calls are an account's administration, made
/// straight to the server by the simulations.
struct SimulatedLink: QSSyncTransport {
    let replica: Int
    let network: SimulatedNetwork
    var account: InMemorySyncServer.Session

    init(replica: Int, network: SimulatedNetwork, account: String = InMemorySyncServer.owner) {
        self.replica = replica
        self.network = network
        self.account = network.server.session(account)
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try await network.push(from: replica, as: account, request)
    }

    func pull(since token: String?, limit: Int, replica replicaID: SyncReplicaID?) async throws -> SyncPullResponse {
        try await network.pull(from: replica, as: account, since: token, limit: limit, replicaID: replicaID, group: nil)
    }

    func pull(since token: String?, limit: Int, replica replicaID: SyncReplicaID?, group: String?) async throws -> SyncPullResponse {
        try await network.pull(from: replica, as: account, since: token, limit: limit, replicaID: replicaID, group: group)
    }

    func blobStatus(_ blob: SyncBlobReference, group: String?) async throws -> SyncBlobStatus {
        try await network.blob(from: replica, "blob status") { try await account.blobStatus(blob, group: group) }
    }

    func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data, group: String?) async throws -> SyncBlobStatus {
        try await network.blob(from: replica, "blob part \(index)") { try await account.uploadBlobPart(blob, index: index, bytes: bytes, group: group) }
    }

    func downloadBlob(_ blob: SyncBlobReference, group: String?) async throws -> Data {
        try await network.blob(from: replica, "blob download") { try await account.downloadBlob(blob, group: group) }
    }

    func groups() async throws -> [SyncGroup] {
        try await network.groups(from: replica, as: account)
    }
}

/// The first few objects (by ID) whose values differ between two replicas, for a failure's message.
func valuesThatDiffer(_ mine: [Int64: String], _ theirs: [Int64: String]) -> String {
    let keys = Set(mine.keys).union(theirs.keys).sorted().filter { mine[$0] != theirs[$0] }
    return keys.prefix(5).map { "\($0): \(mine[$0] ?? "missing") vs \(theirs[$0] ?? "missing")" }.joined(separator: "; ")
}
