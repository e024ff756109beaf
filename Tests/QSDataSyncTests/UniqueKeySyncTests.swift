import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// A unique key made on two devices offline converges to one object, listed wherever either
/// device listed it.
@MainActor
struct UniqueKeySyncTests {
    static let model = BoardModel.modelWithUniqueTitles

    static func replica(_ server: InMemorySyncServer, clock: HandClock) async throws -> (store: QSStore, sync: QSSync) {
        let store = try await QSStore.open(
            at: Replica.temporaryURL(), model: QSDataModel(propertyList: Data(model.utf8), fileName: "Boards.plist"),
            schema: QSSchema(creationSQL: BoardModel.schema), types: [Board.self, Card.self])
        return (store, try await QSSync.attach(to: store, transport: server, clock: clock.clock))
    }

    static func lists(_ store: QSStore) async throws -> [[SQLValue]] {
        try await store.fetchRows("SELECT boardID, group_concat(cardID) FROM (SELECT * FROM boardCards ORDER BY boardID, ix) GROUP BY boardID")
    }

    @Test func aKeyMadeOnTwoDevicesOfflineBecomesOneObjectListedWhereverEitherListedIt() async throws {
        let server = InMemorySyncServer()
        let clock = HandClock()
        let a = try await Self.replica(server, clock: clock), b = try await Self.replica(server, clock: clock)
        try await a.store.save(Board(uniqueID: 1, name: "Trips", cards: [Card(uniqueID: 10, title: "Rome"), Card(uniqueID: 17, title: "Paris")])).committed()
        clock.advance(1)  // B makes its Paris later: A's stays
        try await b.store.save(Board(uniqueID: 2, name: "Food", cards: [Card(uniqueID: 42, title: " paris "), Card(uniqueID: 20, title: "Lyon")])).committed()
        for replica in [a, b, a, b] { try await replica.sync.sync() }
        for replica in [a, b] {
            #expect(try await replica.store.fetchRows("SELECT uniqueID, title FROM cards ORDER BY uniqueID") == [
                [.integer(10), .text("Rome")], [.integer(17), .text("Paris")], [.integer(20), .text("Lyon")],
            ])
            #expect(try await Self.lists(replica.store) == [[.integer(1), .text("10,17")], [.integer(2), .text("17,20")]])
        }
        #expect(server.existingObjects(in: "cards")[.integer(42)] == nil)
        try await a.store.close()
        try await b.store.close()
    }

    /// Three devices, the third hearing of both at once: it keeps the same one.
    @Test func aThirdDeviceThatHearsOfBothKeepsTheSameOne() async throws {
        let server = InMemorySyncServer()
        let clock = HandClock()
        let a = try await Self.replica(server, clock: clock), b = try await Self.replica(server, clock: clock)
        try await a.sync.sync()
        try await b.sync.sync()
        try await b.store.save(Card(uniqueID: 42, title: "Paris")).committed()
        clock.advance(1)
        try await a.store.save(Card(uniqueID: 17, title: "PARIS")).committed()  // later: B's stays
        try await a.sync.sync()
        try await b.sync.sync()
        let c = try await Self.replica(server, clock: clock)
        try await c.sync.sync()
        for replica in [a, b, c] { try await replica.sync.sync() }
        for replica in [a, b, c] {
            #expect(try await replica.store.fetchRows("SELECT uniqueID FROM cards") == [[.integer(42)]])
        }
        for replica in [a, b, c] { try await replica.store.close() }
    }

    /// A renames its "Rome" to "Paris" while B makes a new "Paris": the older object stays.
    @Test func anEditThatGivesAKeyAnotherObjectHoldsConvergesToo() async throws {
        let server = InMemorySyncServer()
        let clock = HandClock()
        let a = try await Self.replica(server, clock: clock), b = try await Self.replica(server, clock: clock)
        try await a.store.save(Board(uniqueID: 1, name: "Trips", cards: [Card(uniqueID: 10, title: "Rome")])).committed()
        for replica in [a, b] { try await replica.sync.sync() }
        clock.advance(1)
        try await b.store.save(Board(uniqueID: 2, name: "Food", cards: [Card(uniqueID: 42, title: "Paris")])).committed()
        let rome = try #require(try await a.store.fetch(Card.self, id: 10))
        rome.title = "paris"
        try await a.store.save(rome).committed()
        for replica in [a, b, a, b] { try await replica.sync.sync() }
        for replica in [a, b] {
            #expect(try await replica.store.fetchRows("SELECT uniqueID, title FROM cards") == [[.integer(10), .text("paris")]])
            #expect(try await Self.lists(replica.store) == [[.integer(1), .text("10")], [.integer(2), .text("10")]])
        }
        try await a.store.close()
        try await b.store.close()
    }

    @Test func aUniqueKeyMustBeAStringPropertyOfASyncedType() throws {
        let optional = BoardModel.model
            .replacingOccurrences(of: "<key>table</key><string>cards</string>", with: "<key>table</key><string>cards</string><key>uniqueKey</key><string>points</string>")
        #expect(throws: QSDataError.invalidModel(
            file: "Bad.plist", type: "Card", key: "uniqueKey", problem: "'points' is double?; a unique key is a string that is never NULL")) {
            try QSDataModel(propertyList: Data(optional.utf8), fileName: "Bad.plist")
        }
        let unsynced = BoardModel.model
            .replacingOccurrences(of: "<key>table</key><string>settings</string>", with: "<key>table</key><string>settings</string><key>uniqueKey</key><string>value</string>")
        #expect(throws: QSDataError.invalidModel(
            file: "Bad.plist", type: "Setting", key: "uniqueKey", problem: "only a synced type has a unique key: add <key>synced</key><true/>")) {
            try QSDataModel(propertyList: Data(unsynced.utf8), fileName: "Bad.plist")
        }
    }
}
