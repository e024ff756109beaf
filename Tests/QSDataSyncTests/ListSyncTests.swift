import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// Ordered relationships merge child by child: concurrent inserts, moves, removals and deletes
/// of the same list on different devices all survive, in one order everywhere.
@MainActor
struct ListSyncTests {
    /// Two replicas of one board (cards 1 and 2), synced; each replica's clock is `clock`.
    private func twoReplicas(cards: [Int64] = [1, 2], clock: HandClock = HandClock()) async throws -> (server: InMemorySyncServer, a: Replica, b: Replica) {
        let server = InMemorySyncServer()
        let a = try await Replica(server: server, clock: clock.clock), b = try await Replica(server: server, clock: clock.clock)
        try await a.store.save(Board(uniqueID: 100, name: "Trip", cards: cards.map { Card(uniqueID: $0, title: "card \($0)") })).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        return (server, a, b)
    }

    private func insert(_ ids: [Int64], at index: Int, on replica: Replica) async throws {
        let board = try #require(try await replica.store.fetch(Board.self, id: 100))
        board.cards.insert(contentsOf: ids.map { Card(uniqueID: $0, title: "card \($0)") }, at: index)
        try await replica.store.save(board).committed()
    }

    private func cardOrder(on replica: Replica) async throws -> [Int64] {
        try await replica.boards()[100].map { text in
            text.split(separator: "|").last.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'")).split(separator: ",").compactMap { Int64($0) } } ?? []
        } ?? []
    }

    private func syncAll(_ replicas: Replica...) async throws {
        for replica in replicas + replicas { try await replica.sync.sync() }
    }

    @Test func twoDevicesInsertingAtTheSamePlaceKeepBothRunsWhole() async throws {
        let (_, a, b) = try await twoReplicas()
        try await insert([11, 12, 13], at: 1, on: a)
        try await insert([21, 22, 23], at: 1, on: b)
        try await syncAll(a, b)
        let order = try await cardOrder(on: a)
        #expect(order == [1, 11, 12, 13, 21, 22, 23, 2] || order == [1, 21, 22, 23, 11, 12, 13, 2], "\(order)")
        #expect(try await cardOrder(on: b) == order)
        try await a.close()
        try await b.close()
    }

    @Test func aMovedChildThatAnotherDeviceDeletesStaysDeleted() async throws {
        let clock = HandClock()
        let (server, a, b) = try await twoReplicas(cards: [1, 2, 3, 4], clock: clock)
        clock.advance(1)
        try await b.store.delete(Card.self, ids: [4]).committed()
        clock.advance(1)
        let board = try #require(try await a.store.fetch(Board.self, id: 100))
        board.cards.insert(board.cards.removeLast(), at: 0)  // moves card 4 to the front, later than the delete
        try await a.store.save(board).committed()
        try await syncAll(a, b)
        #expect(try await cardOrder(on: a) == [1, 2, 3])
        #expect(try await cardOrder(on: b) == [1, 2, 3])
        #expect(try await a.cards()[4] == nil && server.existingObjects(in: "cards")[.integer(4)] == nil)
        try await a.close()
        try await b.close()
    }

    @Test func aMoveDoesNotBringBackAChildAnotherDeviceTookOut() async throws {
        let clock = HandClock()
        let (_, a, b) = try await twoReplicas(cards: [1, 2, 3], clock: clock)
        clock.advance(1)
        let onB = try #require(try await b.store.fetch(Board.self, id: 100))
        onB.cards.removeAll { $0.uniqueID == 3 }
        try await b.store.save(onB).committed()
        clock.advance(1)
        let onA = try #require(try await a.store.fetch(Board.self, id: 100))
        onA.cards.insert(onA.cards.removeLast(), at: 0)  // moves card 3 to the front, later than its removal
        try await a.store.save(onA).committed()
        try await syncAll(a, b)
        #expect(try await cardOrder(on: a) == [1, 2])
        #expect(try await cardOrder(on: b) == [1, 2])
        #expect(try await a.cards()[3] != nil, "taken out of the list, not deleted")
        try await a.close()
        try await b.close()
    }

    @Test func concurrentMovesOfOneChildListItOnceWhereTheLaterPutIt() async throws {
        let clock = HandClock()
        let (_, a, b) = try await twoReplicas(cards: [1, 2, 3, 4], clock: clock)
        let onA = try #require(try await a.store.fetch(Board.self, id: 100))
        onA.cards.insert(onA.cards.remove(at: 1), at: 3)  // 1 3 4 2
        try await a.store.save(onA).committed()
        clock.advance(1)
        let onB = try #require(try await b.store.fetch(Board.self, id: 100))
        onB.cards.insert(onB.cards.remove(at: 1), at: 0)  // 2 1 3 4, later
        try await b.store.save(onB).committed()
        // Both add card 9, at different places.
        try await insert([9], at: 0, on: a)
        try await insert([9], at: 4, on: b)
        try await syncAll(a, b)
        #expect(try await cardOrder(on: a) == [2, 1, 3, 4, 9])
        #expect(try await cardOrder(on: b) == [2, 1, 3, 4, 9])
        try await a.close()
        try await b.close()
    }

    @Test func movingOneChildOfAThousandSendsOneKey() async throws {
        let (server, a, b) = try await twoReplicas(cards: Array(1...1_000))
        let board = try #require(try await a.store.fetch(Board.self, id: 100))
        board.cards.insert(board.cards.remove(at: 10), at: 900)
        try await a.store.save(board).committed()
        #expect(try await a.outbox() == ["boards 100 cards[11].position"])
        try await a.sync.sync()
        let push = try #require(server.pushes.last)
        #expect(push.changes.count == 1 && push.changes[0].values.count == 1)
        try await b.sync.sync()
        #expect(try await cardOrder(on: b) == board.cards.map(\.uniqueID))
        try await a.close()
        try await b.close()
    }

    /// Two devices create the same board (an ID from content), and the earlier creation is
    /// pulled by its device before that device pushes: the later creation's name wins, and the
    /// board lists both devices' cards everywhere.
    @Test(arguments: [true, false]) func aBoardCreatedOnTwoDevicesListsBothDevicesCards(pulledBeforePush: Bool) async throws {
        let server = InMemorySyncServer(), clock = HandClock()
        let a = try await Replica(server: server, clock: clock.clock), b = try await Replica(server: server, clock: clock.clock)
        let first = pulledBeforePush ? b : a, later = pulledBeforePush ? a : b
        try await first.store.save(Board(uniqueID: 100, name: "first", cards: [Card(uniqueID: 3, title: "three")])).committed()
        clock.advance(1)
        try await later.store.save(Board(uniqueID: 100, name: "later", cards: [Card(uniqueID: 1, title: "one"), Card(uniqueID: 2, title: "two")])).committed()
        #expect(try await first.outbox() == ["boards 100 +", "cards 3 +"])
        try await a.sync.sync()
        try await b.sync.sync()
        try await a.sync.sync()
        let listed = try #require(server.existingObjects(in: "boards")[.integer(100)])
        #expect(listed["name"] == .text("later"))
        #expect(listed.keys.filter { !$0.hasSuffix(".position") && $0 != "name" }.sorted() == ["cards[1]", "cards[2]", "cards[3]"])
        for replica in [a, b] {
            #expect(try await replica.boards()[100]?.hasPrefix("'later'") == true)
            #expect(try await cardOrder(on: replica).sorted() == [1, 2, 3])
            #expect(try await replica.outbox() == [])
        }
        #expect(try await cardOrder(on: a) == cardOrder(on: b))
        try await a.close()
        try await b.close()
    }

    /// The same, but the other device deleted its board and created it again before this one
    /// pulled: the deletion, later than this device's creation, takes out the card it listed.
    /// The card itself stays, listed nowhere.
    @Test func aDeletionBetweenTwoCreationsOfABoardTakesOutTheCardsListedBeforeIt() async throws {
        let server = InMemorySyncServer(), clock = HandClock()
        let a = try await Replica(server: server, clock: clock.clock), b = try await Replica(server: server, clock: clock.clock)
        try await b.store.save(Board(uniqueID: 100, name: "first", cards: [Card(uniqueID: 3, title: "three")])).committed()
        clock.advance(1)
        try await a.store.save(Board(uniqueID: 100, name: "a", cards: [Card(uniqueID: 1, title: "one")])).committed()
        try await a.sync.sync()
        clock.advance(1)
        try await a.store.delete(Board.self, ids: [100]).committed()
        try await a.sync.sync()
        clock.advance(1)
        try await a.store.save(Board(uniqueID: 100, name: "again", cards: [Card(uniqueID: 2, title: "two")])).committed()
        try await a.sync.sync()

        try await b.sync.sync()
        try await a.sync.sync()
        let listed = try #require(server.existingObjects(in: "boards")[.integer(100)])
        #expect(listed.filter { $0.key.hasPrefix("cards[") && !$0.key.hasSuffix(".position") && $0.value == .integer(1) }.keys.sorted() == ["cards[2]"])
        for replica in [a, b] {
            #expect(try await cardOrder(on: replica) == [2])
            #expect(try await replica.cards().keys.sorted() == [2, 3])
            #expect(try await replica.outbox() == [])
        }
        try await a.close()
        try await b.close()
    }

    /// A list that arrives whole (from a replica older than list parts) takes the place of the
    /// children listed before it.
    @Test func aListSentWholeByAnOlderReplicaIsMergedChildByChild() async throws {
        let clock = HandClock()
        let (server, a, b) = try await twoReplicas(cards: [1, 2, 3], clock: clock)
        clock.advance(1)
        let older = SyncReplicaID(text: "00000000000000ff")!
        let stamp = SyncStamp(milliseconds: Int64(1_800_000_100 * 1000.0), counter: 0, replica: older)
        _ = try await server.push(SyncPushRequest(replica: older, changes: [
            SyncChange(table: "boards", ids: [.integer(100)], values: ["cards": .ids([.integer(3), .integer(1)])], stamps: ["cards": stamp]),
        ]))
        try await a.sync.sync()
        #expect(try await cardOrder(on: a) == [3, 1])
        // A later insert on B merges with it.
        clock.advance(200)
        try await b.sync.sync()
        try await insert([7], at: 1, on: b)
        try await syncAll(b, a)
        #expect(try await cardOrder(on: a) == [3, 7, 1])
        #expect(try await cardOrder(on: b) == [3, 7, 1])
        try await a.close()
        try await b.close()
    }

    /// A file that synced before lists travelled in parts has lookup rows and no list parts:
    /// the first merge or edit of a list gives it parts, and no child is lost.
    @Test func aFileSyncedBeforeListPartsKeepsItsLists() async throws {
        let clock = HandClock()
        let (_, a, b) = try await twoReplicas(cards: [1, 2, 3], clock: clock)
        for replica in [a, b] {
            try await replica.store.execute("DELETE FROM qsdata_sync_list_items")
        }
        clock.advance(1)
        try await insert([8], at: 0, on: a)
        let board = try #require(try await b.store.fetch(Board.self, id: 100))
        board.name = "renamed"
        try await b.store.save(board).committed()
        try await syncAll(a, b)
        #expect(try await cardOrder(on: a) == [8, 1, 2, 3])
        #expect(try await cardOrder(on: b) == [8, 1, 2, 3])
        #expect(try await b.boards()[100]?.hasPrefix("'renamed'") == true)
        try await a.close()
        try await b.close()
    }
}
