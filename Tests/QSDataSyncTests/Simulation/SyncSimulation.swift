import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport

/// A deterministic sync simulation: several replicas of the board model and a server in one
/// process, seeded random creations, edits, reorders and deletes on the replicas, syncs through
/// a misbehaving network (see ``SimulatedNetwork``), each replica's clock up to an hour off.
/// Then the network heals and every replica syncs twice; ``run()`` returns what differs.
@MainActor
final class SyncSimulation {
    let seed: UInt64
    let steps: Int
    private var random: SeededGenerator
    private let network: SimulatedNetwork
    private var replicas: [Replica] = []
    private var clocks: [HandClock] = []
    /// Every step taken, to print when the run fails.
    private(set) var journal: [String] = []
    /// Every object deleted on any replica: none may exist at the end.
    private var deletedCards: Set<Int64> = []
    private var deletedBoards: Set<Int64> = []
    /// Every card created on any replica with a title of its own: those never deleted must exist at the end.
    private var createdCards: Set<Int64> = []
    /// Cards made with one of the shared titles: of each title at most one may exist.
    private var sharedTitleCards: Set<Int64> = []
    static let sharedTitles = ["Paris", "paris ", "Rome", "ROME", "Lyon"]
    private var nextID: Int64 = 1

    init(seed: UInt64, replicaCount: Int = 3, steps: Int = 80) {
        self.seed = seed
        self.steps = steps
        random = SeededGenerator(seed: seed)
        network = SimulatedNetwork(seed: seed)
        replicaTotal = replicaCount
    }

    private let replicaTotal: Int

    /// Runs the simulation; returns the differences found (empty when everything converged).
    func run() async throws -> [String] {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<replicaTotal {
            // Up to an hour fast or slow.
            let skew = Double(Int(random.next() % 7_200_001) - 3_600_000) / 1000
            let clock = HandClock(start + skew)
            clocks.append(clock)
            var idGenerator = SeededGenerator(seed: seed &+ UInt64(index) &* 7919)
            replicas.append(try await Replica(
                server: SimulatedLink(replica: index, network: network), clock: clock.clock,
                newReplicaID: SyncReplicaID.random(using: &idGenerator), model: BoardModel.modelWithUniqueTitles))
        }
        defer { Task { @MainActor [replicas] in for replica in replicas { try? await replica.close() } } }
        // The server collects deletions once every replica that pulled in the last 30 seconds has
        // pulled them: a replica cut off or idle for longer must pull everything again.
        let serverClock = HandClock(start)
        network.server.now = serverClock.clock.now
        network.server.inactiveAfter = 30
        for step in 0..<steps {
            serverClock.advance(1)
            for clock in clocks { clock.advance(Double(random.next() % 2_000) / 1000) }
            try await takeStep(step)
        }
        journal.append("the network heals")
        try await network.heal(syncing: replicas.map(\.sync)) { round, index, report in
            journal.append("round \(round): replica \(index) syncs: \(describe(report))")
        }
        return try await differences()
    }

    private func takeStep(_ step: Int) async throws {
        let index = Int(random.next() % UInt64(replicas.count))
        let replica = replicas[index]
        let store = replica.store
        switch random.next() % 100 {
        case 0..<14:
            let cards = (0..<Int(random.next() % 4)).map { _ in newCard(titled: "new \(step)") }
            let board = Board(uniqueID: newID(), name: "board \(step)", cards: cards)
            note(step, index, "creates board \(board.uniqueID) with cards \(cards.map(\.uniqueID))")
            try await store.save(board).committed()
        case 14..<32:
            guard let card = try await someCard(on: replica) else { return }
            card.title = "title \(step)@\(index)"
            // Now and then to a shared title no card here holds: another device may hold it.
            let shared = Self.sharedTitles[Int(random.next() % UInt64(Self.sharedTitles.count))]
            if random.next() % 4 == 0, try await store.fetchRows("SELECT title FROM cards").allSatisfy({ row in
                if case .text(let held) = row[0] { UniqueTitles.key(held) != UniqueTitles.key(shared) } else { true }
            }) {
                card.title = shared
                sharedTitleCards.insert(card.uniqueID)
            }
            if random.next() % 2 == 0 { card.points = Double(random.next() % 100) / 4 }
            note(step, index, "retitles card \(card.uniqueID) \"\(card.title)\"")
            try await store.save(card).committed()
        case 32..<42:
            guard let card = try await someCard(on: replica) else { return }
            card.done.toggle()
            note(step, index, "toggles card \(card.uniqueID)")
            try await store.save(card).committed()
        case 42..<50:
            guard let board = try await someBoard(on: replica) else { return }
            board.name = "renamed \(step)@\(index)"
            note(step, index, "renames board \(board.uniqueID)")
            try await store.save(board).committed()
        case 50..<53:
            guard let board = try await someBoard(on: replica), board.cards.count > 1 else { return }
            board.cards.shuffle(using: &random)
            note(step, index, "reorders board \(board.uniqueID) to \(board.cards.map(\.uniqueID))")
            try await store.save(board).committed()
        case 53..<56:
            // Cards are named by their titles: devices apart make the same few names.
            guard let board = try await someBoard(on: replica) else { return }
            let title = Self.sharedTitles[Int(random.next() % UInt64(Self.sharedTitles.count))]
            guard try await store.fetchRows("SELECT uniqueID, title FROM cards").allSatisfy({ row in
                if case .text(let held) = row[1] { UniqueTitles.key(held) != UniqueTitles.key(title) } else { true }
            }) else { return }
            let card = Card(uniqueID: newID(), title: title)
            sharedTitleCards.insert(card.uniqueID)
            board.cards.insert(card, at: Int(random.next() % UInt64(board.cards.count + 1)))
            note(step, index, "names card \(card.uniqueID) \"\(title)\" in board \(board.uniqueID)")
            try await store.save(board).committed()
        case 56..<60:
            guard let board = try await someBoard(on: replica) else { return }
            let cards = (0..<1 + Int(random.next() % 3)).map { _ in newCard(titled: "inserted \(step)") }
            let place = Int(random.next() % UInt64(board.cards.count + 1))
            board.cards.insert(contentsOf: cards, at: place)
            note(step, index, "inserts cards \(cards.map(\.uniqueID)) at \(place) of board \(board.uniqueID)")
            try await store.save(board).committed()
        case 60..<63:
            guard let board = try await someBoard(on: replica), !board.cards.isEmpty else { return }
            let card = board.cards.remove(at: Int(random.next() % UInt64(board.cards.count)))
            note(step, index, "takes card \(card.uniqueID) out of board \(board.uniqueID)")
            try await store.save(board).committed()
        case 63..<66:
            guard let board = try await someBoard(on: replica), let card = try await someCard(on: replica),
                  !board.cards.contains(where: { $0.uniqueID == card.uniqueID }) else { return }
            board.cards.insert(card, at: Int(random.next() % UInt64(board.cards.count + 1)))
            note(step, index, "adds card \(card.uniqueID) to board \(board.uniqueID)")
            try await store.save(board).committed()
        case 66..<72:
            guard let card = try await someCard(on: replica) else { return }
            note(step, index, "deletes card \(card.uniqueID)")
            deletedCards.insert(card.uniqueID)
            try await store.delete(Card.self, ids: [card.uniqueID]).committed()
        case 72..<76:
            guard let board = try await someBoard(on: replica) else { return }
            deletedBoards.insert(board.uniqueID)
            try await store.delete(Board.self, ids: [board.uniqueID]).committed()
            // The cascade spares a card another board still lists.
            let remaining = try await Set(replica.cards().keys)
            let gone = board.cards.map(\.uniqueID).filter { !remaining.contains($0) }
            deletedCards.formUnion(gone)
            note(step, index, "deletes board \(board.uniqueID) and its cards \(gone)")
        case 76..<80:
            if network.partitioned.contains(index) {
                network.partitioned.remove(index)
                note(step, index, "rejoins the network")
            } else {
                network.partitioned.insert(index)
                note(step, index, "is cut off from the server")
            }
        case 80..<83:
            note(step, index, "late pushes arrive")
            try await network.deliverHeldPushes()
        default:
            note(step, index, "syncs")
            do {
                let report = try await replica.sync.sync()
                journal.append("    \(describe(report))")
            } catch let error as QSSyncError {
                journal.append("    sync failed: \(error)")
            }
        }
    }

    private func note(_ step: Int, _ replica: Int, _ what: String) {
        journal.append("step \(step): replica \(replica) \(what)")
    }

    /// A new card with a title of its own (its ID appended to `title`).
    private func newCard(titled title: String) -> Card {
        let id = newID()
        createdCards.insert(id)
        return Card(uniqueID: id, title: "\(title) #\(id)")
    }

    private func newID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    private func someCard(on replica: Replica) async throws -> Card? {
        let ids = try await replica.store.fetchRows("SELECT uniqueID FROM cards ORDER BY uniqueID").compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { id } else { nil }
        }
        guard !ids.isEmpty else { return nil }
        return try await replica.store.fetch(Card.self, id: ids[Int(random.next() % UInt64(ids.count))])
    }

    private func someBoard(on replica: Replica) async throws -> Board? {
        let ids = try await replica.store.fetchRows("SELECT uniqueID FROM boards ORDER BY uniqueID").compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { id } else { nil }
        }
        guard !ids.isEmpty else { return nil }
        return try await replica.store.fetch(Board.self, id: ids[Int(random.next() % UInt64(ids.count))])
    }

    /// What the replicas and the server disagree on, and deleted objects that exist.
    private func differences() async throws -> [String] {
        var problems: [String] = []
        let firstCards = try await replicas[0].cards(), firstBoards = try await replicas[0].boards()
        for (index, replica) in replicas.enumerated().dropFirst() {
            let cards = try await replica.cards(), boards = try await replica.boards()
            if cards != firstCards { problems.append("replica \(index)'s cards differ from replica 0's: \(valuesThatDiffer(cards, firstCards))") }
            if boards != firstBoards { problems.append("replica \(index)'s boards differ from replica 0's: \(valuesThatDiffer(boards, firstBoards))") }
        }
        let serverCards = Set(network.server.existingObjects(in: "cards").keys)
        if serverCards != Set(firstCards.keys.map { SyncID.integer($0) }) { problems.append("the server's cards differ from the replicas'") }
        let serverBoards = Set(network.server.existingObjects(in: "boards").keys)
        if serverBoards != Set(firstBoards.keys.map { SyncID.integer($0) }) { problems.append("the server's boards differ from the replicas'") }
        let revivedCards = deletedCards.intersection(firstCards.keys), revivedBoards = deletedBoards.intersection(firstBoards.keys)
        if !revivedCards.isEmpty { problems.append("deleted cards exist: \(revivedCards.sorted())") }
        let lostCards = createdCards.subtracting(deletedCards).subtracting(sharedTitleCards).subtracting(firstCards.keys)
        if !lostCards.isEmpty { problems.append("cards created and never deleted are missing: \(lostCards.sorted())") }
        var titleHolders: [String: [Int64]] = [:]
        for (card, text) in firstCards {
            let title = text.split(separator: "|").first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'")) } ?? ""
            titleHolders[UniqueTitles.key(title), default: []].append(card)
        }
        for (title, cards) in titleHolders where cards.count > 1 { problems.append("cards \(cards.sorted()) share the title \(title)") }
        if !revivedBoards.isEmpty { problems.append("deleted boards exist: \(revivedBoards.sorted())") }
        for (board, text) in firstBoards {
            let listed = text.split(separator: "|").last.map { $0.split(separator: ",").compactMap { Int64($0.trimmingCharacters(in: CharacterSet(charactersIn: "'"))) } } ?? []
            if Set(listed).count != listed.count { problems.append("board \(board) lists a card twice: \(listed)") }
            let dangling = Set(listed).intersection(deletedCards)
            if !dangling.isEmpty { problems.append("board \(board) lists deleted cards \(dangling.sorted())") }
        }
        return problems
    }

    private func describe(_ report: QSSyncReport) -> String {
        var parts = ["pushed \(report.pushedObjects)", "pulled \(report.pulledObjects)", "applied \(report.appliedObjects)"]
        if report.resyncs > 0 { parts.append("resynced, removing \(report.objectsRemovedByResync)") }
        return parts.joined(separator: ", ")
    }

    /// What to print when a run fails: the seed, how to run it alone, and every step.
    var replayInstructions: String {
        """
        sync simulation seed \(seed) failed. Replay it alone with:
            QSDATA_SYNC_SEEDS=\(seed) swift test --filter SyncSimulatorTests
        Its steps:
        \((journal + network.log.map { "network: \($0)" }).joined(separator: "\n"))
        """
    }
}

/// Titles as a unique key compares them: case and runs of whitespace ignored.
enum UniqueTitles {
    static func key(_ title: String) -> String {
        title.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }
}
