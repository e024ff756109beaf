import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// Two or more replicas of the board model syncing through a server in memory: what travels,
/// how it merges, and how it reaches the app.
@MainActor
struct ClientSyncTests {
    @Test func objectsAndOrderedRelationshipsReachTheOtherReplica() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server), b = try await Replica(server: server)
        let cards = (1...3).map { Card(uniqueID: $0, title: "card \($0)", points: $0 == 2 ? 2.5 : nil) }
        try await a.store.save(Board(uniqueID: 10, name: "Home", cards: cards)).committed()
        try await a.sync.sync()
        let report = try await b.sync.sync()
        #expect(report.appliedObjects == 4)
        #expect(try await b.cards() == [1: "'card 1'|0|NULL", 2: "'card 2'|0|2.5", 3: "'card 3'|0|NULL"])
        #expect(try await b.boards() == [10: "'Home'|'1,2,3'"])

        // A reorder writes the position of the card that moved, and the removal of the one taken out.
        let board = try #require(try await a.store.fetch(Board.self, id: 10))
        board.cards = [board.cards[2], board.cards[0]]
        try await a.store.save(board).committed()
        #expect(try await a.outbox() == ["boards 10 cards[2]", "boards 10 cards[3].position"])
        try await a.sync.sync()
        try await b.sync.sync()
        #expect(try await b.boards() == [10: "'Home'|'3,1'"])
        try await a.close()
        try await b.close()
    }

    @Test func editsOfDifferentPropertiesBothSurviveAndTheLaterEditOfOneWins() async throws {
        let server = InMemorySyncServer()
        let clock = HandClock()
        let a = try await Replica(server: server, clock: clock.clock), b = try await Replica(server: server, clock: clock.clock)
        try await a.store.save(Card(uniqueID: 1, title: "first")).committed()
        try await a.sync.sync()
        try await b.sync.sync()

        let onA = try #require(try await a.store.fetch(Card.self, id: 1))
        let onB = try #require(try await b.store.fetch(Card.self, id: 1))
        clock.advance(1)
        onA.title = "title from A"
        onA.points = 1
        try await a.store.save(onA).committed()
        clock.advance(1)
        onB.done = true
        onB.points = 2
        try await b.store.save(onB).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        try await a.sync.sync()
        #expect(try await a.cards() == [1: "'title from A'|1|2.0"])
        #expect(try await b.cards() == [1: "'title from A'|1|2.0"])
        // The instance B holds was brought up to date by the merge.
        #expect(onB.title == "title from A" && onB.points == 2)
        try await a.close()
        try await b.close()
    }

    @Test func aThousandEditsOfoneTitlePushAsOneValue() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server)
        let card = Card(uniqueID: 1, title: "0")
        try await a.store.save(card).committed()
        try await a.sync.sync()
        for edit in 1...1_000 {
            card.title = "\(edit)"
            try await a.store.save(card).committed()
        }
        let waiting = try await a.outbox()
        #expect(waiting == ["cards 1 title"])
        let report = try await a.sync.sync()
        #expect(report.pushRequests == 1 && report.pushedObjects == 1)
        let push = try #require(server.pushes.last)
        #expect(push.changes.count == 1)
        #expect(push.changes[0].values == ["title": .text("1000")])
        #expect(try await a.outbox() == [])
        try await a.close()
    }

    @Test func typesAndPropertiesNotSyncedAreNeverSent() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server), b = try await Replica(server: server)
        try await a.store.save(Setting(uniqueID: "theme", value: "dark")).committed()
        try await a.store.save(Board(uniqueID: 1, name: "Work", draft: "secret")).committed()
        try await a.sync.sync()
        let sent = server.pushes.flatMap(\.changes)
        #expect(sent.map(\.table) == ["boards"])
        #expect(Set(sent[0].values.keys) == ["name"])
        let board = try #require(try await a.store.fetch(Board.self, id: 1))
        board.draft = "more secret"
        try await a.store.save(board).committed()
        #expect(try await a.outbox() == [], "a local property's change queues nothing")
        try await b.sync.sync()
        #expect(try await b.store.fetchRows("SELECT name, draft FROM boards") == [[.text("Work"), .null]])
        #expect(try await b.store.fetchRows("SELECT count(*) FROM settings") == [[.integer(0)]])
        try await a.close()
        try await b.close()
    }

    @Test func aDeleteWinsOverAConcurrentEditAndTheObjectNeverComesBack() async throws {
        let server = InMemorySyncServer()
        let clock = HandClock()
        let a = try await Replica(server: server, clock: clock.clock), b = try await Replica(server: server, clock: clock.clock)
        try await a.store.save(Board(uniqueID: 1, name: "Trip", cards: [Card(uniqueID: 5, title: "tickets")])).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        clock.advance(1)
        try await a.store.delete(Board.self, ids: [1]).committed()  // cascades to card 5
        clock.advance(1)
        let card = try #require(try await b.store.fetch(Card.self, id: 5))
        card.done = true  // later than the delete, on the other replica
        try await b.store.save(card).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        try await a.sync.sync()
        #expect(try await a.cards() == [:])
        #expect(try await b.cards() == [:])
        #expect(try await a.boards() == [:])
        let boardsOnB = try await b.boards()
        #expect(boardsOnB == [:])
        #expect(server.existingObjects(in: "cards").isEmpty)
        try await a.close()
        try await b.close()
    }

    @Test func aReplicaWhoseClockIsAnHourBehindStillWinsWithTheEditItMadeLater() async throws {
        let server = InMemorySyncServer()
        let now = HandClock(), behind = HandClock(Date(timeIntervalSince1970: 1_800_000_000 - 3_600))
        let a = try await Replica(server: server, clock: now.clock), slow = try await Replica(server: server, clock: behind.clock)
        try await a.store.save(Card(uniqueID: 1, title: "from A")).committed()
        try await a.sync.sync()
        try await slow.sync.sync()
        let card = try #require(try await slow.store.fetch(Card.self, id: 1))
        card.title = "edited after seeing A's"
        try await slow.store.save(card).committed()
        try await slow.sync.sync()
        try await a.sync.sync()
        #expect(try await a.cards()[1] == "'edited after seeing A''s'|0|NULL")
        try await a.close()
        try await slow.close()
    }

    @Test func markingTenThousandDoneIsOneRequestAndOneChange() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server), b = try await Replica(server: server)
        try await a.store.save((1...10_000).map { Card(uniqueID: Int64($0), title: "card \($0)") }).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        let before = server.pushes.count
        try await a.store.update(Card.self, ids: Array(1...10_000), set: ["done": true]).committed()
        let report = try await a.sync.sync()
        #expect(report.pushRequests == 1 && server.pushes.count == before + 1)
        let push = try #require(server.pushes.last)
        #expect(push.changes.count == 1 && push.changes[0].ids.count == 10_000 && push.changes[0].values == ["done": .integer(1)])
        let pulled = try await b.sync.sync()
        #expect(pulled.appliedObjects == 10_000)
        #expect(try await b.store.fetchRows("SELECT count(*) FROM cards WHERE done = 1") == [[.integer(10_000)]])
        try await a.close()
        try await b.close()
    }

    @Test func whatSyncMergesReachesObserversAsFromSync() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server), b = try await Replica(server: server)
        let changes = b.store.changes
        try await a.store.save(Card(uniqueID: 7, title: "seven")).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        let change = try await Waiting.nextChange(on: changes) { !$0.insertedIDs(of: Card.self).isEmpty }
        #expect(change.source == .sync)
        #expect(change.insertedIDs(of: Card.self) == [7])
        try await a.close()
        try await b.close()
    }

    @Test func aLiveQueryFollowsWhatSyncMerges() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server), b = try await Replica(server: server)
        let live = try await b.store.liveQuery(QSQuery(Card.self, where: "done = ?", arguments: [false], orderBy: "uniqueID"))
        try await a.store.save([Card(uniqueID: 1, title: "one"), Card(uniqueID: 2, title: "two")]).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        try await live.waitUntilCurrent()
        #expect(live.objects.map(\.uniqueID) == [1, 2])
        try await a.store.update(Card.self, ids: [1], set: ["done": true]).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        try await live.waitUntilCurrent()
        #expect(live.objects.map(\.uniqueID) == [2])
        try await a.close()
        try await b.close()
    }

    @Test func changesByTheAppsSQLAndByAnotherConnectionAreQueuedToo() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server)
        try await a.store.writeAndWait { db in try db.execute("INSERT INTO cards (uniqueID, title) VALUES (1, 'by SQL')") }
        let other = try SQLiteConnection(path: a.url.path)
        try other.execute("INSERT INTO cards (uniqueID, title) VALUES (2, 'by another connection')")
        try other.execute("UPDATE cards SET title = 'renamed' WHERE uniqueID = 1")
        try await a.sync.sync()
        let pushed = server.existingObjects(in: "cards")
        #expect(pushed[.integer(1)]?["title"] == .text("renamed"))
        #expect(pushed[.integer(2)]?["title"] == .text("by another connection"))
        try await a.close()
    }

    @Test func aStoreThatHeldObjectsBeforeSyncQueuesThemAllWhenFirstAttached() async throws {
        let url = Replica.temporaryURL()
        let store = try await BoardModel.openStore(at: url)
        try await store.save((1...5).map { Card(uniqueID: $0, title: "old \($0)") }).committed()
        try await store.close()
        let server = InMemorySyncServer()
        let a = try await Replica(server: server, url: url)
        #expect(try await a.outbox().count == 5)
        try await a.sync.sync()
        #expect(server.existingObjects(in: "cards").count == 5)
        try await a.close()
    }

    @Test func aFailedPushLosesNothingAndIsSentAgain() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server)
        try await a.store.save(Card(uniqueID: 1, title: "one")).committed()
        server.failNext(1)
        await #expect(throws: QSSyncError.unreachable("the test's server is down")) { try await a.sync.sync() }
        let waiting = try await a.outbox()
        #expect(waiting == ["cards 1 +"])
        try await a.sync.sync()
        #expect(try await a.outbox() == [])
        #expect(server.existingObjects(in: "cards")[.integer(1)]?["title"] == .text("one"))
        try await a.close()
    }

    @Test func aTokenTheServerNoLongerKnowsMeansEverythingIsPulledAgain() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server), b = try await Replica(server: server)
        try await a.store.save(Card(uniqueID: 1, title: "one")).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        try await b.store.writeAndWait { db in try db.execute("UPDATE qsdata_sync_state SET value = 'garbage' WHERE key = 'token'") }
        let report = try await b.sync.sync()
        #expect(report.pullRequests == 1 && report.pulledObjects == 1 && report.appliedObjects == 0)
        try await a.close()
        try await b.close()
    }

    /// A pull in pages: an object created before the page it falls in (it changed again since)
    /// still arrives whole, creation and every property, on the replica that pulls in small
    /// pages, whether it pulls from the start or from a token.
    @Test func anObjectEditedAfterItsCreationArrivesWholeThroughAPullOfManyPages() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server), b = try await Replica(server: server)
        try await a.store.save(Card(uniqueID: 9, title: "card 9")).committed()
        try await a.sync.sync()
        try await b.sync.sync()  // its token now stands past card 9
        try await a.store.save((1...3).map { Card(uniqueID: $0, title: "card \($0)", points: Double($0)) }).committed()
        try await a.sync.sync()
        let first = try #require(try await a.store.fetch(Card.self, id: 1))
        first.title = "card 1, edited"
        try await a.store.save(first).committed()
        try await a.sync.sync()
        let expected: [Int64: String] = [1: "'card 1, edited'|0|1.0", 2: "'card 2'|0|2.0", 3: "'card 3'|0|3.0", 9: "'card 9'|0|NULL"]

        b.sync.pullLimit = 1
        let fromToken = try await b.sync.sync()
        #expect(fromToken.pullRequests == 3)
        #expect(try await b.cards() == expected)
        let c = try await Replica(server: server)
        c.sync.pullLimit = 2
        try await c.sync.sync()
        #expect(try await c.cards() == expected)
        // A replica that pushed everything it holds pulls none of it back.
        #expect(try await a.sync.sync().pulledObjects == 0)
        try await a.close()
        try await b.close()
        try await c.close()
    }

    /// The first device of an account pulls the empty account, pushes what it holds, and pulls
    /// none of it back: a finished pull's token leaves the replica's own writes out, even at the
    /// account's first number.
    @Test func theFirstDeviceOfAnAccountPullsNoneOfItsOwnPushBack() async throws {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server)
        try await a.sync.sync()
        try await a.store.save((1...3).map { Card(uniqueID: $0, title: "card \($0)") }).committed()
        let report = try await a.sync.sync()
        #expect(report.pushedObjects == 3 && report.pulledObjects == 0)
        try await a.close()
    }

    @Test func aModelWithoutSyncedTypesIsRefused() async throws {
        let url = Replica.temporaryURL()
        let plist = BoardModel.model.replacingOccurrences(of: "<key>synced</key><true/>", with: "")
            .replacingOccurrences(of: "<key>localProperties</key><array><string>draft</string></array>", with: "")
        let store = try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(plist.utf8)), schema: QSSchema(creationSQL: BoardModel.schema),
            types: [Board.self, Card.self, Setting.self])
        await #expect(throws: QSSyncError.nothingSynced) { try await QSSync.attach(to: store, transport: InMemorySyncServer()) }
        try await store.close()
    }
}

enum Waiting {
    struct TimedOut: Error {}

    /// The next change on `changes` that `matches`, within 30 seconds.
    static func nextChange(on changes: AsyncStream<QSChange>, where matches: @escaping @Sendable (QSChange) -> Bool) async throws -> QSChange {
        try await withThrowingTaskGroup(of: QSChange?.self) { group in
            group.addTask {
                for await change in changes where matches(change) { return change }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                throw TimedOut()
            }
            defer { group.cancelAll() }
            guard let change = try await group.next() ?? nil else { throw TimedOut() }
            return change
        }
    }
}
