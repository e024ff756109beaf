import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport

/// The sync simulation with objects shared in a group: three accounts (the owner's two
/// devices, Bob's two, Cat's one) edit boards and cards of their own and of the group through
/// the misbehaving network, while the owner takes Bob and Cat out of the group and adds them
/// back. Once the network heals: each account's devices agree; every member holds the group's
/// objects, the same everywhere, and no one else holds any; no one holds another account's own
/// objects; nothing deleted exists; nothing the owner made and no one deleted is lost.
@MainActor
final class GroupSimulation {
    struct Device {
        let account: String
        let replica: Replica
    }

    let seed: UInt64
    let steps: Int
    private var random: SeededGenerator
    private let network: SimulatedNetwork
    private var devices: [Device] = []
    private var group = ""
    private(set) var journal: [String] = []
    /// Who made each object (its ID) and in which group (nil: the maker's own).
    private var made: [Int64: (account: String, group: String?)] = [:]
    /// Deletions that must have reached everyone, and every deletion tried (one made by a
    /// member taken out before it synced may never arrive).
    private var deleted: Set<Int64> = []
    private var deletionsTried: Set<Int64> = []
    /// Group objects deleted by each member other than the owner, not yet known to have arrived.
    private var memberDeletions: [String: Set<Int64>] = [:]
    /// The group's members, as the server has them.
    private var members: Set<String> = []
    private var nextID: Int64 = 1
    static let owner = InMemorySyncServer.owner

    init(seed: UInt64, steps: Int = 90) {
        self.seed = seed
        self.steps = steps
        random = SeededGenerator(seed: seed ^ 0x6772_6F75_7073)
        network = SimulatedNetwork(seed: seed)
    }

    func run() async throws -> [String] {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let serverClock = HandClock(start)
        network.server.now = serverClock.clock.now
        network.server.inactiveAfter = 30
        let owner = network.server.session(Self.owner)
        group = try await owner.createGroup(named: "Family").id
        _ = try await owner.addMember("bob", to: group)
        members = [Self.owner, "bob"]
        journal.append("the owner makes group \(group) with bob")
        for (index, account) in [Self.owner, Self.owner, "bob", "bob", "cat"].enumerated() {
            var ids = SeededGenerator(seed: seed &+ UInt64(index) &* 7919)
            let replica = try await Replica(
                server: SimulatedLink(replica: index, network: network, account: account), clock: HandClock(start).clock,
                newReplicaID: SyncReplicaID.random(using: &ids), model: BoardModel.modelWithGroups, schema: BoardModel.schemaWithGroups, types: [])
            devices.append(Device(account: account, replica: replica))
        }
        defer { Task { @MainActor [devices] in for device in devices { try? await device.replica.close() } } }
        for step in 0..<steps {
            serverClock.advance(1)
            try await takeStep(step)
        }
        journal.append("the network heals")
        try await network.heal(syncing: devices.map(\.replica.sync)) { round, index, report in
            journal.append("round \(round): device \(index) syncs: pushed \(report.pushedObjects), pulled \(report.pulledObjects), removed with groups \(report.objectsRemovedWithGroups)")
        }
        return try await differences()
    }

    private func takeStep(_ step: Int) async throws {
        let index = Int(random.next() % UInt64(devices.count))
        let device = devices[index]
        let store = device.replica.store
        switch random.next() % 100 {
        case 0..<16:
            // In the group when this device syncs it, else the account's own.
            let knows = try await store.fetchRows("SELECT 1 FROM qsdata_sync_groups WHERE groupID = ?", [.text(group)]).isEmpty == false
            let team: String? = knows && random.next() % 3 != 0 ? group : nil
            let board = newID(by: device.account, in: team)
            let cards = (0..<Int(random.next() % 4)).map { _ in newID(by: device.account, in: team) }
            note(step, index, "makes board \(board) with cards \(cards) in \(team ?? "its own")")
            try await store.write { db in
                try db.execute("INSERT INTO boards (uniqueID, name, team) VALUES (?, ?, ?)", [.integer(board), .text("board \(step)"), Self.value(team)])
                for (offset, card) in cards.enumerated() {
                    try db.execute("INSERT INTO cards (uniqueID, title, team) VALUES (?, ?, ?)", [.integer(card), .text("card \(card)"), Self.value(team)])
                    try db.execute("INSERT INTO boardCards (boardID, cardID, ix) VALUES (?, ?, ?)", [.integer(board), .integer(card), .integer(Int64(offset))])
                }
            }.committed()
        case 16..<36:
            guard let card = try await pick("cards", on: store) else { return }
            note(step, index, "retitles card \(card)")
            try await store.write { db in
                try db.execute("UPDATE cards SET title = ?, points = ? WHERE uniqueID = ?", [.text("title \(step)@\(index)"), .real(Double(step) / 4), .integer(card)])
            }.committed()
        case 36..<44:
            guard let card = try await pick("cards", on: store) else { return }
            note(step, index, "toggles card \(card)")
            try await store.write { db in try db.execute("UPDATE cards SET done = 1 - done WHERE uniqueID = ?", [.integer(card)]) }.committed()
        case 44..<50:
            guard let board = try await pick("boards", on: store) else { return }
            note(step, index, "renames board \(board)")
            try await store.write { db in try db.execute("UPDATE boards SET name = ? WHERE uniqueID = ?", [.text("renamed \(step)@\(index)"), .integer(board)]) }.committed()
        case 50..<56:
            guard let board = try await pick("boards", on: store) else { return }
            var cards = try await listed(on: board, in: store)
            guard cards.count > 1 else { return }
            cards.shuffle(using: &random)
            note(step, index, "reorders board \(board) to \(cards)")
            try await relist(board, cards, in: store)
        case 56..<62:
            guard let board = try await pick("boards", on: store) else { return }
            let team = try await store.fetchRows("SELECT team FROM boards WHERE uniqueID = ?", [.integer(board)]).first?.first
            let teamName: String? = if case .text(let name)? = team { name } else { nil }
            var cards = try await listed(on: board, in: store)
            let card = newID(by: device.account, in: teamName)
            cards.insert(card, at: Int(random.next() % UInt64(cards.count + 1)))
            note(step, index, "adds card \(card) to board \(board): \(cards)")
            try await store.write { db in
                try db.execute("INSERT INTO cards (uniqueID, title, team) VALUES (?, ?, ?)", [.integer(card), .text("card \(card)"), Self.value(teamName)])
            }.committed()
            try await relist(board, cards, in: store)
        case 62..<68:
            guard let card = try await pick("cards", on: store) else { return }
            note(step, index, "deletes card \(card)")
            noteDeletion(card, by: device.account)
            try await store.write { db in
                try db.execute("DELETE FROM boardCards WHERE cardID = ?", [.integer(card)])
                try db.execute("DELETE FROM cards WHERE uniqueID = ?", [.integer(card)])
            }.committed()
        case 68..<71:
            guard let board = try await pick("boards", on: store) else { return }
            note(step, index, "deletes board \(board)")
            noteDeletion(board, by: device.account)
            try await store.write { db in
                try db.execute("DELETE FROM boardCards WHERE boardID = ?", [.integer(board)])
                try db.execute("DELETE FROM boards WHERE uniqueID = ?", [.integer(board)])
            }.committed()
        case 71..<75:
            if network.partitioned.remove(index) != nil {
                note(step, index, "rejoins the network")
            } else {
                network.partitioned.insert(index)
                note(step, index, "is cut off from the server")
            }
        case 75..<77:
            note(step, index, "late pushes arrive")
            try await network.deliverHeldPushes()
        case 77..<82:
            try await changeMembership(step)
        default:
            note(step, index, "syncs")
            do {
                let report = try await device.replica.sync.sync()
                journal.append("    pushed \(report.pushedObjects), pulled \(report.pulledObjects), removed with groups \(report.objectsRemovedWithGroups)")
            } catch let error as QSSyncError {
                journal.append("    sync failed: \(error)")
            }
        }
    }

    /// The owner takes Bob or Cat out of the group, or adds them back.
    private func changeMembership(_ step: Int) async throws {
        let owner = network.server.session(Self.owner)
        let person = random.next() % 2 == 0 ? "bob" : "cat"
        if members.contains(person) {
            _ = try await owner.removeMember(person, from: group)
            members.remove(person)
            // What the member deleted and had not synced never arrives.
            deleted.subtract(memberDeletions[person] ?? [])
            memberDeletions[person] = []
            journal.append("step \(step): the owner takes \(person) out of the group")
        } else {
            _ = try await owner.addMember(person, to: group)
            members.insert(person)
            journal.append("step \(step): the owner adds \(person) to the group")
        }
    }

    private func noteDeletion(_ id: Int64, by account: String) {
        deletionsTried.insert(id)
        guard made[id]?.group != nil, account != Self.owner else { return _ = deleted.insert(id) }
        // A member's deletion of a group object arrives unless the member is taken out before
        // it syncs (or already was, its devices not knowing yet).
        guard members.contains(account) else { return }
        deleted.insert(id)
        memberDeletions[account, default: []].insert(id)
    }

    private nonisolated static func value(_ team: String?) -> SQLValue { team.map { .text($0) } ?? .null }

    private func newID(by account: String, in team: String?) -> Int64 {
        defer { nextID += 1 }
        made[nextID] = (account, team)
        return nextID
    }

    private func note(_ step: Int, _ device: Int, _ what: String) {
        journal.append("step \(step): device \(device) (\(devices[device].account)) \(what)")
    }

    private func pick(_ table: String, on store: QSStore) async throws -> Int64? {
        let ids = try await store.fetchRows("SELECT uniqueID FROM \(table) ORDER BY uniqueID").compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { id } else { nil }
        }
        return ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
    }

    private func listed(on board: Int64, in store: QSStore) async throws -> [Int64] {
        try await store.fetchRows("SELECT cardID FROM boardCards WHERE boardID = ? ORDER BY ix", [.integer(board)]).compactMap { row in
            if case .integer(let id) = row[0] { id } else { nil }
        }
    }

    private func relist(_ board: Int64, _ cards: [Int64], in store: QSStore) async throws {
        try await store.write { db in
            try db.execute("DELETE FROM boardCards WHERE boardID = ?", [.integer(board)])
            for (offset, card) in cards.enumerated() {
                try db.execute("INSERT INTO boardCards (boardID, cardID, ix) VALUES (?, ?, ?)", [.integer(board), .integer(card), .integer(Int64(offset))])
            }
        }.committed()
    }

    /// One device's objects: `card N` and `board N` by ID, with their values (a board's cards in order).
    private func objects(on device: Device) async throws -> [Int64: String] {
        var objects: [Int64: String] = [:]
        for row in try await device.replica.store.fetchRows("SELECT uniqueID, title, done, points, team FROM cards") {
            if case .integer(let id) = row[0] { objects[id] = "card " + row.dropFirst().map { "\($0)" }.joined(separator: "|") }
        }
        for row in try await device.replica.store.fetchRows("""
            SELECT b.uniqueID, b.name, b.team, (SELECT group_concat(cardID) FROM (SELECT cardID FROM boardCards WHERE boardID = b.uniqueID ORDER BY ix))
            FROM boards AS b
            """) {
            if case .integer(let id) = row[0] { objects[id] = "board " + row.dropFirst().map { "\($0)" }.joined(separator: "|") }
        }
        return objects
    }

    private func differences() async throws -> [String] {
        var problems: [String] = []
        let serverMembers = Set(try await network.server.session(Self.owner).groups().first { $0.id == group }?.members ?? [])
        if serverMembers != members { problems.append("the server's members \(serverMembers.sorted()) are not \(members.sorted())") }
        var held: [[Int64: String]] = []
        for device in devices { held.append(try await objects(on: device)) }
        var groupObjects: [Int64: String]?
        for (index, device) in devices.enumerated() {
            let objects = held[index]
            if let first = devices.firstIndex(where: { $0.account == device.account }), first != index, held[first] != objects {
                problems.append("device \(index) of \(device.account) differs from device \(first): \(valuesThatDiffer(objects, held[first]))")
            }
            for (id, _) in objects {
                guard let maker = made[id] else { continue }
                if let team = maker.group {
                    if !members.contains(device.account) { problems.append("device \(index) of \(device.account), not a member, holds \(id) of group \(team)") }
                } else if maker.account != device.account {
                    problems.append("device \(index) of \(device.account) holds \(id), \(maker.account)'s own")
                }
            }
            let revived = deleted.intersection(objects.keys)
            if !revived.isEmpty { problems.append("device \(index) holds deleted objects \(revived.sorted())") }
            // What an account made and no one deleted is on its devices (a group's, when the
            // owner made it: it never leaves the group).
            let lost = made.filter { id, maker in
                maker.account == device.account && !deletionsTried.contains(id) && objects[id] == nil && (maker.group == nil || device.account == Self.owner)
            }
            if !lost.isEmpty { problems.append("device \(index) lost objects no one deleted: \(lost.keys.sorted())") }
            guard members.contains(device.account) else { continue }
            let shared = objects.filter { made[$0.key]?.group != nil }
            if let groupObjects, groupObjects != shared {
                problems.append("device \(index) of \(device.account) holds other group objects: \(valuesThatDiffer(shared, groupObjects))")
            }
            groupObjects = groupObjects ?? shared
        }
        let serverShared = Set(network.server.existingObjects(in: "cards", group: group).keys)
            .union(network.server.existingObjects(in: "boards", group: group).keys)
        if let groupObjects, serverShared != Set(groupObjects.keys.map { SyncID.integer($0) }) {
            problems.append("the server's group objects differ from the members'")
        }
        for (index, device) in devices.enumerated() where devices.firstIndex(where: { $0.account == device.account }) == index {
            let own = Set(held[index].keys.filter { made[$0]?.group == nil }.map { SyncID.integer($0) })
            let onServer = Set(network.server.existingObjects(in: "cards", account: device.account).keys)
                .union(network.server.existingObjects(in: "boards", account: device.account).keys)
            if own != onServer { problems.append("the server's objects of \(device.account)'s own differ from its devices'") }
        }
        return problems
    }

    var replayInstructions: String {
        """
        group simulation seed \(seed) failed. Replay it alone with:
            QSDATA_SYNC_SEEDS=\(seed) swift test --filter groupMembersConverge
        Its steps:
        \((journal + network.log.map { "network: \($0)" }).joined(separator: "\n"))
        """
    }
}
