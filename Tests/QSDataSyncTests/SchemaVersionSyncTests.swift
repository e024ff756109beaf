import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// Devices on two versions of the board model sync: what the newer version added passes through
/// the older unchanged and is kept there for when it updates; a synced property the model drops is
/// refused unless the app says it was renamed or removed.
@MainActor
struct SchemaVersionSyncTests {
    /// The next version of the board model: cards have a colour, and labels sync.
    static let newerModel = BoardModel.model
        .replacingOccurrences(of: "<key>points</key><string>double?</string>", with: """
            <key>points</key><string>double?</string><key>color</key><string>string?</string>
            """)
        .replacingOccurrences(of: "<key>Setting</key><dict>", with: """
            <key>Label</key><dict>
              <key>table</key><string>labels</string>
              <key>synced</key><true/>
              <key>properties</key><dict><key>uniqueID</key><string>string</string><key>text</key><string>string</string></dict>
            </dict>
            <key>Setting</key><dict>
            """)
    static let newerMigration = "ALTER TABLE cards ADD COLUMN color TEXT; CREATE TABLE labels (uniqueID TEXT PRIMARY KEY, text TEXT NOT NULL);"

    /// Opens `url` with the newer model (migrating a file of the older one), through SQL only.
    static func openNewer(at url: URL, model: String = newerModel, migration: String = newerMigration) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(model.utf8), fileName: "Boards2.plist"),
            schema: QSSchema(creationSQL: BoardModel.schema, migrations: [QSMigration(version: 1, sql: migration)]), types: [])
    }

    @Test func whatANewerVersionAddsPassesThroughAnOlderOneAndIsThereWhenItUpdates() async throws {
        let server = InMemorySyncServer()
        let newerURL = Replica.temporaryURL(), olderURL = Replica.temporaryURL()
        let newer = try await Self.openNewer(at: newerURL)
        let newerSync = try await QSSync.attach(to: newer, transport: server)
        try await newer.execute("INSERT INTO cards (uniqueID, title, color) VALUES (1, 'paint', 'red')")
        try await newer.execute("INSERT INTO labels (uniqueID, text) VALUES ('urgent', 'Urgent')")
        try await newerSync.sync()

        let older = try await Replica(server: server, url: olderURL)
        let report = try await older.sync.sync()
        #expect(report.unknownTables == ["labels"])
        let card = try #require(try await older.store.fetch(Card.self, id: 1))
        card.title = "paint the door"
        try await older.store.save(card).committed()
        try await older.sync.sync()
        try await newerSync.sync()
        #expect(try await newer.fetchRows("SELECT title, color FROM cards") == [[.text("paint the door"), .text("red")]])
        #expect(server.existingObjects(in: "cards")[.integer(1)]?["color"] == .text("red"), "the older device's edit left the colour alone")

        // The older device updates: the colour and the label are there before it syncs again.
        try await older.store.close()
        let updated = try await Self.openNewer(at: olderURL)
        let updatedSync = try await QSSync.attach(to: updated, transport: server)
        #expect(try await updated.fetchRows("SELECT title, color FROM cards") == [[.text("paint the door"), .text("red")]])
        #expect(try await updated.fetchRows("SELECT uniqueID, text FROM labels") == [[.text("urgent"), .text("Urgent")]])
        #expect(try await updatedSync.waitingCount() == 0, "what was kept is merged, not sent back")
        try await updated.close()
        try await newer.close()
    }

    /// The same card created on a newer device, with a colour, and a second later on an older
    /// one, which knows no colour; the newer device's push of its creation is lost, so it pulls
    /// the older creation before it pushes again. The older creation wins; the colour it left out
    /// keeps the newer creation's value on every device, as it would had the newer device's push
    /// arrived first, and a device that merged the older creation before the colour took it when
    /// it came.
    @Test func aPropertyAnOlderDevicesLaterCreationLeavesOutKeepsTheEarlierCreationsValueEverywhere() async throws {
        let server = InMemorySyncServer(), clock = HandClock()
        let newer = try await Self.openNewer(at: Replica.temporaryURL())
        let newerSync = try await QSSync.attach(to: newer, transport: server, clock: clock.clock)
        let third = try await Self.openNewer(at: Replica.temporaryURL())
        let thirdSync = try await QSSync.attach(to: third, transport: server, clock: clock.clock)
        let older = try await Replica(server: server, clock: clock.clock)
        try await newerSync.sync()
        try await newer.execute("INSERT INTO cards (uniqueID, title, color) VALUES (7, 'newer', 'red')")
        server.failNext(1)
        await #expect(throws: QSSyncError.self) { try await newerSync.sync() }  // the creation is stamped, not pushed
        clock.advance(1)
        try await older.store.save(Card(uniqueID: 7, title: "older")).committed()
        try await older.sync.sync()
        try await thirdSync.sync()  // the older creation, before the colour is anywhere but on `newer`
        #expect(try await third.fetchRows("SELECT title, color FROM cards") == [[.text("older"), .null]])
        // A fourth device merges the older creation on the older model, then updates.
        let updatedURL = Replica.temporaryURL()
        let beforeUpdate = try await Replica(server: server, url: updatedURL, clock: clock.clock)
        try await beforeUpdate.sync.sync()
        try await beforeUpdate.store.close()
        let updated = try await Self.openNewer(at: updatedURL)
        let updatedSync = try await QSSync.attach(to: updated, transport: server, clock: clock.clock)

        try await newerSync.sync()  // takes the older creation, and sends the colour on its own
        try await thirdSync.sync()
        try await updatedSync.sync()
        try await older.sync.sync()
        #expect(server.existingObjects(in: "cards")[.integer(7)]?["color"] == .text("red"))
        for store in [newer, third, updated] {
            #expect(try await store.fetchRows("SELECT title, color FROM cards") == [[.text("older"), .text("red")]])
        }
        #expect(try await newerSync.waitingCount() == 0)

        // An edit of the colour made anywhere after that still wins everywhere.
        clock.advance(1)
        try await third.execute("UPDATE cards SET color = 'blue' WHERE uniqueID = 7")
        try await thirdSync.sync()
        try await newerSync.sync()
        #expect(try await newer.fetchRows("SELECT title, color FROM cards") == [[.text("older"), .text("blue")]])
        try await older.close()
        try await updated.close()
        try await third.close()
        try await newer.close()
    }

    /// A device updates and creates a card with a colour before sync is attached again: that
    /// creation set the colour, at its own stamp, and wins over an earlier creation's colour.
    @Test func aCreationMadeBetweenAnUpdateAndAttachingSetsTheNewProperty() async throws {
        let server = InMemorySyncServer(), clock = HandClock()
        let earlier = try await Self.openNewer(at: Replica.temporaryURL())
        let earlierSync = try await QSSync.attach(to: earlier, transport: server, clock: clock.clock)
        try await earlierSync.sync()
        try await earlier.execute("INSERT INTO cards (uniqueID, title, color) VALUES (9, 'earlier', 'blue')")
        server.failNext(1)
        await #expect(throws: QSSyncError.self) { try await earlierSync.sync() }  // stamped, not pushed
        clock.advance(1)

        let url = Replica.temporaryURL()
        let beforeUpdate = try await Replica(server: server, url: url, clock: clock.clock)
        try await beforeUpdate.sync.sync()
        try await beforeUpdate.store.close()
        let updated = try await Self.openNewer(at: url)
        try await updated.execute("INSERT INTO cards (uniqueID, title, color) VALUES (9, 'updated', 'green')")
        let updatedSync = try await QSSync.attach(to: updated, transport: server, clock: clock.clock)
        try await updatedSync.sync()
        try await earlierSync.sync()
        try await updatedSync.sync()
        #expect(server.existingObjects(in: "cards")[.integer(9)]?["color"] == .text("green"))
        for store in [earlier, updated] {
            #expect(try await store.fetchRows("SELECT title, color FROM cards") == [[.text("updated"), .text("green")]])
        }
        try await updated.close()
        try await earlier.close()
    }

    /// A card deleted, then created again by an older device that knows no colour: a device that
    /// pulls the deletion and the creation together ends as one that pulled them apart, with the
    /// colour at the column's default (NULL, or the one the table declares, in each way SQLite
    /// takes one) rather than the deleted card's.
    @Test(arguments: [
        ("", SQLValue.null), (" DEFAULT 'it''s'", .text("it's")), (" DEFAULT none", .text("none")), (" DEFAULT \"quoted\"", .text("quoted")),
        (" DEFAULT `ticked`", .text("ticked")), (" DEFAULT [bracketed]", .text("bracketed")), (" DEFAULT ('a' || 'b')", .text("ab")),
        (" DEFAULT -1", .text("-1")),
    ])
    func aDeletionAndAnOlderDevicesCreationPulledTogetherLeaveTheNewPropertyAtItsDefault(columnDefault: String, expected: SQLValue) async throws {
        let migration = Self.newerMigration.replacingOccurrences(of: "color TEXT", with: "color TEXT" + columnDefault)
        let server = InMemorySyncServer(), clock = HandClock()
        let newer = try await Self.openNewer(at: Replica.temporaryURL(), migration: migration)
        let newerSync = try await QSSync.attach(to: newer, transport: server, clock: clock.clock)
        let together = try await Self.openNewer(at: Replica.temporaryURL(), migration: migration)
        let togetherSync = try await QSSync.attach(to: together, transport: server, clock: clock.clock)
        let older = try await Replica(server: server, clock: clock.clock)
        try await newer.execute("INSERT INTO cards (uniqueID, title, color) VALUES (5, 'first', 'red')")
        try await newerSync.sync()
        try await togetherSync.sync()
        clock.advance(1)
        try await newer.execute("DELETE FROM cards WHERE uniqueID = 5")
        try await newerSync.sync()
        clock.advance(1)
        try await older.store.save(Card(uniqueID: 5, title: "again")).committed()
        try await older.sync.sync()
        try await newerSync.sync()  // the creation, after the deletion apart
        try await togetherSync.sync()  // the deletion and the creation at once
        for store in [newer, together] {
            #expect(try await store.fetchRows("SELECT title, color FROM cards") == [[.text("again"), expected]])
        }
        try await older.close()
        try await together.close()
        try await newer.close()
    }

    @Test func aSyncedPropertyTheModelDropsIsRefusedUnlessNamedRemovedOrRenamed() async throws {
        let server = InMemorySyncServer()
        let url = Replica.temporaryURL()
        let newer = try await Self.openNewer(at: url)
        _ = try await QSSync.attach(to: newer, transport: server)
        try await newer.close()

        // The colour and the labels are gone from the model (the columns stay in the file).
        let dropped = try await Self.openNewer(at: url, model: BoardModel.model)
        await #expect(throws: QSSyncError.syncedPropertyRemoved(table: "cards", property: "color")) {
            try await QSSync.attach(to: dropped, transport: server, schemaChanges: QSSyncSchemaChanges(removed: ["labels": ["*"]]))
        }
        await #expect(throws: QSSyncError.syncedPropertyRemoved(table: "labels", property: "*")) {
            try await QSSync.attach(to: dropped, transport: server, schemaChanges: QSSyncSchemaChanges(removed: ["cards": ["color"]]))
        }
        _ = try await QSSync.attach(
            to: dropped, transport: server, schemaChanges: QSSyncSchemaChanges(removed: ["cards": ["color"], "labels": ["*"]]))
        try await dropped.close()
    }

    /// `points` becomes `estimate`: what an older device sends as `points` lands in `estimate`.
    @Test func aRenamedPropertyTakesWhatOlderDevicesSendUnderItsOldName() async throws {
        let server = InMemorySyncServer()
        let older = try await Replica(server: server)
        try await older.store.save(Card(uniqueID: 1, title: "estimate me", points: 1)).committed()
        try await older.sync.sync()

        let url = Replica.temporaryURL()
        let renamedModel = BoardModel.model.replacingOccurrences(of: "<key>points</key>", with: "<key>estimate</key>")
        let first = try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(BoardModel.model.utf8), fileName: "Boards.plist"),
            schema: QSSchema(creationSQL: BoardModel.schema), types: [])
        _ = try await QSSync.attach(to: first, transport: server)
        try await first.close()
        let renamed = try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(renamedModel.utf8), fileName: "Boards2.plist"),
            schema: QSSchema(creationSQL: BoardModel.schema, migrations: [QSMigration(version: 1, sql: "ALTER TABLE cards RENAME COLUMN points TO estimate")]),
            types: [])
        let sync = try await QSSync.attach(
            to: renamed, transport: server, schemaChanges: QSSyncSchemaChanges(renamed: ["cards": ["estimate": "points"]]))
        try await sync.sync()
        #expect(try await renamed.fetchRows("SELECT estimate FROM cards") == [[.real(1)]])
        let card = try #require(try await older.store.fetch(Card.self, id: 1))
        card.points = 8
        try await older.store.save(card).committed()
        try await older.sync.sync()
        try await sync.sync()
        #expect(try await renamed.fetchRows("SELECT estimate FROM cards") == [[.real(8)]])
        try await renamed.close()
        try await older.close()
    }
}
