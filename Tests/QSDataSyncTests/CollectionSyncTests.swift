import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// The server removes deleted objects once every active device has them, and a device away
/// longer pulls everything again, losing none of its own edits and bringing nothing back.
@MainActor
struct CollectionSyncTests {
    /// A server whose replicas count as away after a minute of its clock.
    private func server(clock: HandClock) -> InMemorySyncServer {
        let server = InMemorySyncServer()
        server.now = clock.clock.now
        server.inactiveAfter = 60
        return server
    }

    @Test func aDeviceAwayPastCollectionPullsEverythingAgainAndKeepsItsOwnEdits() async throws {
        let serverClock = HandClock(), clock = HandClock()
        let server = server(clock: serverClock)
        let a = try await Replica(server: server, clock: clock.clock), b = try await Replica(server: server, clock: clock.clock)
        try await a.store.save(Board(uniqueID: 100, name: "Trip", cards: (1...3).map { Card(uniqueID: $0, title: "card \($0)") })).committed()
        try await a.sync.sync()
        try await b.sync.sync()

        // B goes away and edits; A deletes card 2 and takes card 3 off the board.
        clock.advance(1)
        try await b.store.save(Card(uniqueID: 50, title: "made while away")).committed()
        let one = try #require(try await b.store.fetch(Card.self, id: 1))
        one.title = "edited while away"
        try await b.store.save(one).committed()
        serverClock.advance(120)
        try await a.store.delete(Card.self, ids: [2]).committed()
        let board = try #require(try await a.store.fetch(Board.self, id: 100))
        board.cards.removeAll { $0.uniqueID == 3 }
        try await a.store.save(board).committed()
        try await a.sync.sync()
        try await a.sync.sync()
        // Card 2's record is gone from the server: board, cards 1 and 3 remain.
        #expect(server.recordCount == 3)

        let report = try await b.sync.sync()
        #expect(report.resyncs == 1 && report.objectsRemovedByResync == 1)
        try await a.sync.sync()
        for replica in [a, b] {
            #expect(try await replica.cards() == [
                1: "'edited while away'|0|NULL", 3: "'card 3'|0|NULL", 50: "'made while away'|0|NULL",
            ])
            #expect(try await replica.boards() == [100: "'Trip'|'1'"])
        }
        try await a.close()
        try await b.close()
    }

    /// A resync in pages keeps the objects this device wrote alone: every page of a pull that
    /// began without a token brings the device's own writes, not only the first.
    @Test func aResyncInManyPagesKeepsWhatThisDeviceWroteAlone() async throws {
        let serverClock = HandClock(), clock = HandClock()
        let server = server(clock: serverClock)
        let a = try await Replica(server: server, clock: clock.clock), b = try await Replica(server: server, clock: clock.clock)
        try await a.store.save((1...3).map { Card(uniqueID: $0, title: "card \($0)") }).committed()
        try await a.sync.sync()
        try await b.store.save((60...62).map { Card(uniqueID: $0, title: "b's \($0)") }).committed()
        try await b.sync.sync()
        try await a.sync.sync()
        serverClock.advance(120)
        try await a.store.delete(Card.self, ids: [2]).committed()
        try await a.sync.sync()
        try await a.sync.sync()

        b.sync.pullLimit = 1
        let report = try await b.sync.sync()
        #expect(report.resyncs == 1 && report.objectsRemovedByResync == 1)
        #expect(try await b.cards().keys.sorted() == [1, 3, 60, 61, 62])
        #expect(server.existingObjects(in: "cards").count == 5)
        try await a.close()
        try await b.close()
    }

    /// A resync cut off partway (a page that fails, an app killed) is done again from the start at
    /// the next sync, so what the server collected still goes.
    @Test func aResyncCutShortStillRemovesWhatWasCollected() async throws {
        let serverClock = HandClock()
        let server = server(clock: serverClock)
        let cutter = FullPullCutter(server: server)
        let a = try await Replica(server: server), b = try await Replica(server: cutter)
        try await a.store.save((1...3).map { Card(uniqueID: $0, title: "card \($0)") }).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        serverClock.advance(120)
        try await a.store.delete(Card.self, ids: [2]).committed()
        try await a.sync.sync()
        try await a.sync.sync()
        #expect(server.recordCount == 2, "card 2's record was collected")

        b.sync.pullLimit = 1
        await cutter.cutNextFullPull(atPage: 2)
        await #expect(throws: FullPullCutter.cut) { try await b.sync.sync() }
        let report = try await b.sync.sync()
        #expect(report.resyncs == 1 && report.objectsRemovedByResync == 1)
        #expect(try await b.cards().keys.sorted() == [1, 3])
        try await a.close()
        try await b.close()
    }

    /// Twenty rounds of creating 50 cards and deleting the 50 made before: the server holds the
    /// live cards and at most two rounds of deletions, however many rounds run.
    @Test func theServersStorageStaysBoundedUnderChurn() async throws {
        let serverClock = HandClock()
        let server = server(clock: serverClock)
        let a = try await Replica(server: server), b = try await Replica(server: server)
        var largest = 0
        for round in 0..<20 {
            let made = (0..<50).map { Card(uniqueID: Int64(round * 50 + $0), title: "round \(round)") }
            try await a.store.save(made).committed()
            if round > 0 { try await a.store.delete(Card.self, ids: (0..<50).map { Int64((round - 1) * 50 + $0) }).committed() }
            try await a.sync.sync()
            try await b.sync.sync()
            serverClock.advance(1)
            largest = max(largest, server.recordCount)
        }
        #expect(largest <= 150, "the server held \(largest) records at most")
        #expect(try await b.cards().count == 50)
        try await a.close()
        try await b.close()
    }

    /// A push read from the queue before deletions the server has collected since (a request
    /// delivered late, say) is refused, so it can't bring them back.
    @Test func aLatePushCannotBringBackWhatWasCollected() async throws {
        let serverClock = HandClock()
        let server = server(clock: serverClock)
        let a = try await Replica(server: server), b = try await Replica(server: server)
        try await a.store.save(Card(uniqueID: 1, title: "one")).committed()
        try await a.sync.sync()
        let late = try #require(server.pushes.last)
        try await b.sync.sync()
        try await b.store.delete(Card.self, ids: [1]).committed()
        // Each pull tells the server where the one before ended: two rounds take both past the deletion.
        for _ in 1...2 {
            try await b.sync.sync()
            try await a.sync.sync()
        }
        #expect(server.recordCount == 0)
        await #expect(throws: QSSyncError.server(status: 410, code: "resyncRequired", message: "pull everything again")) {
            try await server.push(late)
        }
        #expect(server.existingObjects(in: "cards").isEmpty)
        try await a.close()
        try await b.close()
    }

    /// A push whose answer is lost still arrived: the next pull says so, and nothing is sent twice.
    @Test func aPushWhoseAnswerWasLostIsNotSentAgain() async throws {
        let server = InMemorySyncServer()
        let lossy = AnswerLosingTransport(server: server)
        let store = try await BoardModel.openStore(at: Replica.temporaryURL())
        let sync = try await QSSync.attach(to: store, transport: lossy)
        try await sync.sync()
        try await store.save(Card(uniqueID: 1, title: "one")).committed()
        lossy.loseNextPushAnswer = true
        await #expect(throws: QSSyncError.self) { try await sync.sync() }
        #expect(try await sync.waitingCount() == 1)
        let pushes = server.pushes.count
        try await sync.sync()
        #expect(server.pushes.count == pushes, "the pull said the push arrived: nothing to send")
        #expect(try await sync.waitingCount() == 0)
        try await store.close()
    }
}

/// Passes requests to a server, and can lose the answer to the next push after the server took it.
final class AnswerLosingTransport: QSSyncTransport, @unchecked Sendable {
    let server: InMemorySyncServer
    var loseNextPushAnswer = false

    init(server: InMemorySyncServer) {
        self.server = server
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let response = try await server.push(request)
        if loseNextPushAnswer {
            loseNextPushAnswer = false
            throw QSSyncError.unreachable("the answer was lost")
        }
        return response
    }

    func pull(since token: String?, limit: Int, replica: SyncReplicaID?) async throws -> SyncPullResponse {
        try await server.pull(since: token, limit: limit, replica: replica)
    }
}

/// Passes requests to a server, and can fail one page of the next full pull (a pull without a
/// token, and the pages that follow it).
actor FullPullCutter: QSSyncTransport {
    static let cut = QSSyncError.unreachable("the full pull was cut off")

    let server: InMemorySyncServer
    private var pageToCut: Int?
    /// The pages of the full pull under way so far; nil when none is.
    private var fullPullPages: Int?

    init(server: InMemorySyncServer) {
        self.server = server
    }

    /// Fails page `page` (the first is 1) of the next full pull.
    func cutNextFullPull(atPage page: Int) {
        pageToCut = page
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try await server.push(request)
    }

    func pull(since token: String?, limit: Int, replica: SyncReplicaID?) async throws -> SyncPullResponse {
        if token == nil { fullPullPages = 0 }
        if let pages = fullPullPages {
            fullPullPages = pages + 1
            if pages + 1 == pageToCut {
                pageToCut = nil
                fullPullPages = nil
                throw Self.cut
            }
        }
        let response = try await server.pull(since: token, limit: limit, replica: replica)
        if !response.more { fullPullPages = nil }
        return response
    }
}
