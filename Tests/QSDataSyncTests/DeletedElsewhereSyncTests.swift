import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// An object another replica deleted stays deleted when this one saves an instance it still
/// held from before: a delete wins over every edit. A new instance with the same uniqueID, or
/// an instance of an object deleted here, creates the object again.
@MainActor
struct DeletedElsewhereSyncTests {
    /// Card 5 made on `a`, held on `b`, then deleted on `a`, and both synced.
    private func cardHeldOnBDeletedOnA() async throws -> DeletedOnA {
        let replicas = try await DeletedOnA()
        try await replicas.b.sync.sync()
        #expect(try await replicas.b.cards() == [:])
        return replicas
    }

    @Test func savingAHeldCardAfterItsDeletionArrivedDoesNotCreateItAgain() async throws {
        let (server, clock, a, b, held) = try await cardHeldOnBDeletedOnA().all

        clock.advance(1)
        held.done = true
        try await b.store.save(held).committed()
        #expect(try await b.cards() == [5: "'tickets'|1|NULL"], "the store inserts the row again")
        #expect(try await b.outbox() == [])

        let changes = b.store.changes
        try await b.sync.sync()
        let removal = try await Waiting.nextChange(on: changes) { !$0.deletedIDs(of: Card.self).isEmpty }
        #expect(removal.source == .sync && removal.deletedIDs(of: Card.self) == [5])
        #expect(try await b.cards() == [:])
        #expect(try await b.store.fetchRows("SELECT count(*) FROM qsdata_sync_inserted_again") == [[.integer(0)]])
        try await a.sync.sync()
        #expect(server.existingObjects(in: "cards").isEmpty)
        #expect(try await a.cards() == [:])
        try await a.close()
        try await b.close()
    }

    @Test func aNewCardWithTheUniqueIDOfOneDeletedElsewhereComesBackEverywhere() async throws {
        let (server, clock, a, b, held) = try await cardHeldOnBDeletedOnA().all

        clock.advance(1)
        try await b.store.save(Card(uniqueID: 5, title: "tickets again")).committed()
        #expect(try await b.outbox() == ["cards 5 +"])
        try await b.sync.sync()
        try await a.sync.sync()
        #expect(server.existingObjects(in: "cards")[.integer(5)]?["title"] == .text("tickets again"))
        #expect(try await a.cards() == [5: "'tickets again'|0|NULL"])
        #expect(try await b.cards() == [5: "'tickets again'|0|NULL"])
        #expect(held.title == "tickets", "the old instance is not the new card's")
        try await a.close()
        try await b.close()
    }

    @Test func savingTheHeldInstanceOfACardDeletedHereCreatesItAgain() async throws {
        let server = InMemorySyncServer(), clock = HandClock()
        let a = try await Replica(server: server, clock: clock.clock), b = try await Replica(server: server, clock: clock.clock)
        let card = Card(uniqueID: 5, title: "tickets")
        try await a.store.save(card).committed()
        try await a.sync.sync()
        clock.advance(1)
        try await a.store.delete(Card.self, ids: [5]).committed()
        try await a.sync.sync()

        // Undone by saving the instance the app kept.
        clock.advance(1)
        try await a.store.save(card).committed()
        #expect(try await a.outbox() == ["cards 5 +"])
        try await a.sync.sync()
        try await b.sync.sync()
        #expect(server.existingObjects(in: "cards")[.integer(5)]?["title"] == .text("tickets"))
        #expect(try await b.cards() == [5: "'tickets'|0|NULL"])
        try await a.close()
        try await b.close()
    }
}

/// The same when another process on this device (an app extension with its own sync) applied
/// the deletion and the store had not read it yet when the app saved.
@MainActor
struct DeletedByAnotherProcessSyncTests {
    @Test func savingAHeldCardBeforeTheStoreReadItsDeletionDoesNotCreateItAgain() async throws {
        let (server, clock, a, b, held) = try await DeletedOnA().all

        // What another process's sync writes as it merges the pulled deletion, past its own entries.
        let deletion = SyncStamp(milliseconds: Int64(clock.clock.now().timeIntervalSince1970 * 1000), counter: 0, replica: a.sync.replicaID)
        let other = try SQLiteConnection(path: b.url.path)
        try other.transaction {
            try other.execute("DELETE FROM cards WHERE uniqueID = 5")
            try other.execute("UPDATE qsdata_sync_records SET deleted = ? WHERE tableName = 'cards' AND id = 5", [.text(deletion.text)])
            let last = try other.fetchValue("SELECT seq FROM sqlite_sequence WHERE name = 'qsdata_changes'") ?? .integer(0)
            try other.execute("UPDATE qsdata_sync_state SET value = ? WHERE key = 'position'", [last])
            try other.execute("UPDATE qsdata_change_readers SET seq = ? WHERE reader = 'qsdata-sync'", [last])
        }

        // No await since: the store may not have read the deletion yet.
        held.done = true
        let write = try b.store.save(held)
        try await write.committed()
        #expect(try await b.outbox() == [])
        try await b.sync.sync()
        #expect(try await b.cards() == [:])
        try await a.sync.sync()
        #expect(server.existingObjects(in: "cards").isEmpty)
        #expect(try await a.cards() == [:])
        try await a.close()
        try await b.close()
    }
}

/// Card 5 made on `a` and held on `b`, then deleted on `a` and pushed; `b` has not pulled since.
@MainActor
private struct DeletedOnA {
    let server = InMemorySyncServer(), clock = HandClock()
    let a: Replica, b: Replica
    let held: Card

    init() async throws {
        a = try await Replica(server: server, clock: clock.clock)
        b = try await Replica(server: server, clock: clock.clock)
        try await a.store.save(Card(uniqueID: 5, title: "tickets")).committed()
        try await a.sync.sync()
        try await b.sync.sync()
        held = try #require(try await b.store.fetch(Card.self, id: 5))
        clock.advance(1)
        try await a.store.delete(Card.self, ids: [5]).committed()
        try await a.sync.sync()
    }

    var all: (server: InMemorySyncServer, clock: HandClock, a: Replica, b: Replica, held: Card) { (server, clock, a, b, held) }
}
