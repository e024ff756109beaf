import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// The replica's clock takes only stamps it can still make later ones after: bad data from the
/// network is refused with a typed error, and a clock that can't advance refuses to stamp
/// rather than stop the app.
@MainActor
struct ClockSyncTests {
    @Test func aPulledStampAtTheEndOfTimeIsRefusedAndNothingOfItsPageIsApplied() async throws {
        let store = try await BoardModel.openStore(at: Replica.temporaryURL())
        let sync = try await QSSync.attach(to: store, transport: EndOfTimeServer())
        let clockBefore = try await storedClock(of: store)
        await #expect(throws: QSSyncError.stampTooFarAhead(table: "cards", id: "9", stamp: EndOfTimeServer.stamp.text)) {
            try await sync.sync()
        }
        #expect(try await store.fetchRows("SELECT uniqueID FROM cards") == [])
        #expect(try await storedClock(of: store) == clockBefore)
        #expect(try await store.fetchRows("SELECT value FROM qsdata_sync_state WHERE key = 'token'") == [])

        // The clock did not move: the next save is stamped as usual.
        try await store.save(Card(uniqueID: 1, title: "after")).committed()
        #expect(try await store.fetchRows("SELECT uniqueID FROM cards") == [[.integer(1)]])
        try await store.close()
    }

    @Test func aPulledStampAsFarAheadAsTheServerAllowsIsTakenFromADeviceWhoseClockIsBehind() async throws {
        let clock = HandClock()
        // The server's clock an hour ahead of this device's, the stamp a day ahead of the server's.
        let dayAndAnHour = Int64((clock.clock.now().timeIntervalSince1970 + 25 * 60 * 60) * 1000)
        let ahead = SyncStamp(milliseconds: dayAndAnHour, counter: 0, replica: EndOfTimeServer.stamp.replica)
        let store = try await BoardModel.openStore(at: Replica.temporaryURL())
        let sync = try await QSSync.attach(to: store, transport: EndOfTimeServer(stamp: ahead), clock: clock.clock)
        try await sync.sync()
        #expect(try await store.fetchRows("SELECT uniqueID FROM cards") == [[.integer(9)]])
        try await store.close()
    }

    @Test func aPulledStampMoreThanTwoDaysAheadOfThisDevicesClockIsRefused() async throws {
        let clock = HandClock()
        let twoDaysAndAMinute = Int64((clock.clock.now().timeIntervalSince1970 + 2 * 24 * 60 * 60 + 60) * 1000)
        let ahead = SyncStamp(milliseconds: twoDaysAndAMinute, counter: 0, replica: EndOfTimeServer.stamp.replica)
        let store = try await BoardModel.openStore(at: Replica.temporaryURL())
        let sync = try await QSSync.attach(to: store, transport: EndOfTimeServer(stamp: ahead), clock: clock.clock)
        await #expect(throws: QSSyncError.stampTooFarAhead(table: "cards", id: "9", stamp: ahead.text)) { try await sync.sync() }
        #expect(try await store.fetchRows("SELECT uniqueID FROM cards") == [])
        try await store.close()
    }

    @Test func aStoredClockReadingThatCannotAdvanceRefusesToStampInsteadOfStopping() async throws {
        let url = Replica.temporaryURL()
        let first = try await Replica(server: InMemorySyncServer(), url: url)
        let replica = first.sync.replicaID
        try await first.store.writeAndWait { db in
            try db.execute("UPDATE qsdata_sync_state SET value = ? WHERE key = 'clock'", [.text("ffffffffffff-ffff-\(replica.text)")])
        }
        try await first.store.close()

        let store = try await BoardModel.openStore(at: url)
        _ = try await QSSync.attach(to: store, transport: InMemorySyncServer())
        do {
            try await store.save(Card(uniqueID: 1, title: "one")).committed()
            Issue.record("the save should have been refused")
        } catch let error as QSWriteError {
            #expect(error.underlying as? QSSyncError == .clockExhausted(reading: "ffffffffffff-ffff-\(replica.text)"))
        }
        #expect(try await store.fetchRows("SELECT uniqueID FROM cards") == [])
        try await store.close()
    }

    @Test func aClockThatCannotAdvanceStopsASyncWithTheSyncsOwnError() async throws {
        let url = Replica.temporaryURL()
        let server = InMemorySyncServer()
        let first = try await Replica(server: server, url: url)
        try await first.sync.sync()  // pulled once: the next sync pushes first
        let replica = first.sync.replicaID
        try await first.store.writeAndWait { db in
            try db.execute("UPDATE qsdata_sync_state SET value = ? WHERE key = 'clock'", [.text("ffffffffffff-ffff-\(replica.text)")])
        }
        try await first.store.close()

        let store = try await BoardModel.openStore(at: url)
        let sync = try await QSSync.attach(to: store, transport: server)
        // SQL outside a transaction commits without the sync's hook: the push is what stamps it.
        try await store.execute("INSERT INTO cards (uniqueID, title, done) VALUES (1, 'one', 0)")
        await #expect(throws: QSSyncError.clockExhausted(reading: "ffffffffffff-ffff-\(replica.text)")) {
            try await sync.sync()
        }
        #expect(try await sync.waitingCount() == 0)
        try await store.close()
    }

    private func storedClock(of store: QSStore) async throws -> [[SQLValue]] {
        try await store.fetchRows("SELECT value FROM qsdata_sync_state WHERE key = 'clock'")
    }
}

/// A server whose first full pull sends card 9 stamped at `stamp` (by default the last
/// millisecond and counter a stamp can hold).
struct EndOfTimeServer: QSSyncTransport {
    static let stamp = SyncStamp(milliseconds: SyncStamp.maximumMilliseconds, counter: SyncStamp.maximumCounter, replica: SyncReplicaID(text: "00000000000000aa")!)
    var stamp = EndOfTimeServer.stamp

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        SyncPushResponse(received: request.objectCount, applied: 0)
    }

    func pull(since token: String?, limit: Int, replica: SyncReplicaID?) async throws -> SyncPullResponse {
        let card = SyncChange(
            table: "cards", ids: [.integer(9)], created: stamp, values: ["title": .text("x"), "done": .integer(0), "points": .null])
        return SyncPullResponse(changes: token == nil ? [card] : [], token: "t", more: false)
    }
}
