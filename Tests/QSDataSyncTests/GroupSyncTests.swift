import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// Objects shared in groups: they reach every member's devices and no one else's, a member
/// taken out loses them at its next sync, and an object stays in the group it was made in.
@MainActor
struct GroupSyncTests {
    /// A device of `account` with the board model whose boards and cards name a group in `team`.
    static func device(_ account: any QSSyncTransport) async throws -> Replica {
        try await Replica(server: account, model: BoardModel.modelWithGroups, schema: BoardModel.schemaWithGroups, types: [])
    }

    /// Makes board `board` with `cards`, all in `team` (nil: the account's own), in one transaction.
    static func makeBoard(_ board: Int64, _ name: String, cards: [Int64], team: String?, on replica: Replica) async throws {
        let group: SQLValue = team.map { .text($0) } ?? .null
        try await replica.store.write { db in
            try db.execute("INSERT INTO boards (uniqueID, name, team) VALUES (?, ?, ?)", [.integer(board), .text(name), group])
            for (offset, card) in cards.enumerated() {
                try db.execute("INSERT INTO cards (uniqueID, title, team) VALUES (?, ?, ?)", [.integer(card), .text("card \(card)"), group])
                try db.execute("INSERT INTO boardCards (boardID, cardID, ix) VALUES (?, ?, ?)", [.integer(board), .integer(card), .integer(Int64(offset))])
            }
        }.committed()
    }

    /// Each board here: ID, name, team and its cards in order.
    static func boards(_ replica: Replica) async throws -> [String] {
        try await replica.store.fetchRows("""
            SELECT b.uniqueID, b.name, coalesce(b.team, '-'), coalesce((SELECT group_concat(cardID) FROM (SELECT cardID FROM boardCards WHERE boardID = b.uniqueID ORDER BY ix)), '')
            FROM boards AS b ORDER BY b.uniqueID
            """).map { row in row.map { value in if case .text(let text) = value { text } else { "\(value)" } }.joined(separator: " ") }
    }

    static func cardIDs(_ replica: Replica) async throws -> [Int64] {
        try await replica.store.fetchRows("SELECT uniqueID FROM cards ORDER BY uniqueID").compactMap { row in
            if case .integer(let id) = row[0] { id } else { nil }
        }
    }

    @Test func aGroupsObjectsReachEveryMembersDevicesAndNoOneElses() async throws {
        let server = InMemorySyncServer()
        let ann1 = try await Self.device(server), ann2 = try await Self.device(server)
        let bob = try await Self.device(server.session("bob")), cat = try await Self.device(server.session("cat"))
        let family = try await ann1.sync.createGroup(named: "Family")
        #expect(family.owner == InMemorySyncServer.owner && family.members == [InMemorySyncServer.owner])
        #expect(try await ann1.sync.addMember("bob", to: family.id).members == ["bob", InMemorySyncServer.owner])
        try await Self.makeBoard(1, "Groceries", cards: [10, 11], team: family.id, on: ann1)
        try await Self.makeBoard(2, "Ann's", cards: [20], team: nil, on: ann1)
        try await Self.makeBoard(3, "Bob's", cards: [30], team: nil, on: bob)
        for device in [ann1, ann2, bob, cat, ann1, ann2, bob, cat] { try await device.sync.sync() }

        let shared = "1 Groceries \(family.id) 10,11"
        #expect(try await Self.boards(ann2) == [shared, "2 Ann's - 20"])
        #expect(try await Self.boards(bob) == [shared, "3 Bob's - 30"])
        #expect(try await Self.cardIDs(bob) == [10, 11, 30])
        #expect(try await Self.boards(cat).isEmpty)
        #expect(try await Self.cardIDs(cat).isEmpty)
        #expect(Set(server.existingObjects(in: "boards").keys) == [.integer(2)], "the account's own space holds only its own")
        #expect(Set(server.existingObjects(in: "boards", group: family.id).keys) == [.integer(1)])

        // A member's edit reaches the owner's devices; a new card in the group too.
        try await bob.store.execute("UPDATE cards SET title = 'milk' WHERE uniqueID = 10")
        try await bob.store.writeAndWait { db in
            try db.execute("INSERT INTO cards (uniqueID, title, team) VALUES (12, 'eggs', ?)", [.text(family.id)])
            try db.execute("INSERT INTO boardCards (boardID, cardID, ix) VALUES (1, 12, (SELECT max(ix) + 1 FROM boardCards WHERE boardID = 1))")
        }
        try await bob.sync.sync()
        try await ann2.sync.sync()
        #expect(try await ann2.store.fetchRows("SELECT title FROM cards WHERE uniqueID = 10") == [[.text("milk")]])
        #expect(try await Self.boards(ann2) == ["1 Groceries \(family.id) 10,11,12", "2 Ann's - 20"])
        for device in [ann1, ann2, bob, cat] { try await device.close() }
    }

    @Test func aMemberTakenOutLosesTheGroupsObjectsAtItsNextSyncAndGetsThemBackWhenAddedAgain() async throws {
        let server = InMemorySyncServer()
        let ann = try await Self.device(server), bob = try await Self.device(server.session("bob"))
        let family = try await ann.sync.createGroup(named: "Family")
        try await ann.sync.addMember("bob", to: family.id)
        try await Self.makeBoard(1, "Groceries", cards: [10, 11], team: family.id, on: ann)
        try await Self.makeBoard(3, "Bob's", cards: [30], team: nil, on: bob)
        for device in [ann, bob, ann] { try await device.sync.sync() }
        #expect(try await Self.cardIDs(bob) == [10, 11, 30])

        // Bob edits a shared card offline; meanwhile Ann takes him out.
        try await bob.store.execute("UPDATE cards SET title = 'never sent' WHERE uniqueID = 11")
        #expect(try await ann.sync.removeMember("bob", from: family.id).members == [InMemorySyncServer.owner])
        let report = try await bob.sync.sync()
        #expect(report.objectsRemovedWithGroups == 3)
        #expect(try await Self.boards(bob) == ["3 Bob's - 30"])
        #expect(try await bob.outbox().isEmpty, "nothing of the group waits to be pushed")
        #expect(try await bob.store.fetchRows("SELECT count(*) FROM qsdata_sync_records WHERE space IS NOT NULL") == [[.integer(0)]])
        // Nothing was deleted for anyone else.
        try await ann.sync.sync()
        #expect(try await Self.cardIDs(ann) == [10, 11])
        #expect(server.existingObjects(in: "cards", group: family.id)[.integer(11)]?["title"] == .text("card 11"))

        // Added again: everything comes back.
        try await ann.sync.addMember("bob", to: family.id)
        try await bob.sync.sync()
        #expect(try await Self.boards(bob) == ["1 Groceries \(family.id) 10,11", "3 Bob's - 30"])

        // A member may leave on its own; the owner can't.
        try await bob.sync.removeMember("bob", from: family.id)
        #expect(try await bob.sync.sync().objectsRemovedWithGroups == 3)
        await #expect(throws: QSSyncError.server(status: 409, code: "ownerCannotLeave", message: "the owner can't leave")) {
            try await ann.sync.removeMember(InMemorySyncServer.owner, from: family.id)
        }
        try await ann.close()
        try await bob.close()
    }

    @Test func aSaveThatMovesAnObjectToAnotherGroupIsRefusedAndAnotherWritersIsUndone() async throws {
        let server = InMemorySyncServer()
        let ann = try await Self.device(server)
        let family = try await ann.sync.createGroup(named: "Family")
        try await Self.makeBoard(1, "Groceries", cards: [10], team: family.id, on: ann)
        try await ann.sync.sync()
        do {
            try await ann.store.write { db in try db.execute("UPDATE cards SET team = NULL, title = 'moved' WHERE uniqueID = 10") }.committed()
            Issue.record("the save should have been refused")
        } catch let error as QSWriteError {
            #expect(error.underlying as? QSSyncError == .groupChanged(table: "cards", id: "10"))
        }
        #expect(try await ann.store.fetchRows("SELECT title, team FROM cards") == [[.text("card 10"), .text(family.id)]])

        // Another connection's change is undone at the next sync; its other edits go.
        let other = try SQLiteConnection(path: ann.url.path)
        try other.execute("UPDATE cards SET team = NULL, title = 'renamed' WHERE uniqueID = 10")
        try await ann.sync.sync()
        #expect(try await ann.store.fetchRows("SELECT title, team FROM cards") == [[.text("renamed"), .text(family.id)]])
        #expect(server.existingObjects(in: "cards", group: family.id)[.integer(10)]?["title"] == .text("renamed"))
        #expect(server.existingObjects(in: "cards").isEmpty)
        try await ann.close()
    }

    @Test func aDeviceAwayPastTheGroupsCollectionPullsTheGroupAgainAndKeepsEverythingElse() async throws {
        let server = InMemorySyncServer()
        let serverClock = HandClock()
        server.now = serverClock.clock.now
        server.inactiveAfter = 60
        let ann1 = try await Self.device(server), ann2 = try await Self.device(server)
        let family = try await ann1.sync.createGroup(named: "Family")
        try await Self.makeBoard(1, "Groceries", cards: [10, 11], team: family.id, on: ann1)
        try await Self.makeBoard(2, "Ann's", cards: [20], team: nil, on: ann1)
        for device in [ann1, ann2, ann1] { try await device.sync.sync() }
        #expect(try await Self.cardIDs(ann2) == [10, 11, 20])

        // Ann's second device goes quiet; the first deletes a shared card, and the server
        // collects the deletion once the only active device has pulled past it.
        serverClock.advance(120)
        try await ann1.store.write { db in
            try db.execute("DELETE FROM boardCards WHERE cardID = 10")
            try db.execute("DELETE FROM cards WHERE uniqueID = 10")
        }.committed()
        try await ann1.sync.sync()
        try await ann1.sync.sync()
        #expect(server.existingObjects(in: "cards", group: family.id).keys.sorted { $0.json < $1.json } == [.integer(11)])

        let report = try await ann2.sync.sync()
        #expect(report.resyncs == 1, "the group's pull is answered: pull everything again")
        #expect(try await Self.cardIDs(ann2) == [11, 20], "the deleted card goes; the account's own stay")
        #expect(try await Self.boards(ann2) == ["1 Groceries \(family.id) 11", "2 Ann's - 20"])
        try await ann1.close()
        try await ann2.close()
    }

    @Test func aUniqueKeyIsUniqueWithinItsGroup() async throws {
        let server = InMemorySyncServer()
        let model = BoardModel.modelWithGroups.replacingOccurrences(
            of: "<key>table</key><string>cards</string>", with: "<key>table</key><string>cards</string><key>uniqueKey</key><string>title</string>")
        let ann = try await Replica(server: server, model: model, schema: BoardModel.schemaWithGroups, types: [])
        let bob = try await Replica(server: server.session("bob"), model: model, schema: BoardModel.schemaWithGroups, types: [])
        let family = try await ann.sync.createGroup(named: "Family")
        try await ann.sync.addMember("bob", to: family.id)
        // "Paris" in Ann's own cards and in the group, and again in the group on Bob's device.
        try await ann.store.write { db in
            try db.execute("INSERT INTO cards (uniqueID, title) VALUES (1, 'Paris')")
            try db.execute("INSERT INTO cards (uniqueID, title, team) VALUES (2, 'Paris', ?)", [.text(family.id)])
        }.committed()
        try await bob.store.write { db in
            try db.execute("INSERT INTO cards (uniqueID, title, team) VALUES (3, ' paris', ?)", [.text(family.id)])
        }.committed()
        for device in [ann, bob, ann, bob] { try await device.sync.sync() }
        #expect(try await Self.cardIDs(ann) == [1, 2], "one Paris of Ann's own, one of the group's: the group's made first stays")
        #expect(try await Self.cardIDs(bob) == [2])
        try await ann.close()
        try await bob.close()
    }

    @Test func aGroupsObjectsANewerVersionAddsAreKeptInTheGroupUntilTheOlderOneUpdates() async throws {
        let server = InMemorySyncServer()
        let newerModel = BoardModel.modelWithGroups.replacingOccurrences(of: "<key>Setting</key><dict>", with: """
            <key>Label</key><dict>
              <key>table</key><string>labels</string>
              <key>synced</key><true/>
              <key>syncGroup</key><string>team</string>
              <key>properties</key><dict>
                <key>uniqueID</key><string>string</string><key>text</key><string>string</string><key>team</key><string>string?</string>
              </dict>
            </dict>
            <key>Setting</key><dict>
            """)
        let newerSchema = try QSSchema(creationSQL: BoardModel.schemaWithGroups, migrations: [
            QSMigration(version: 1, sql: "CREATE TABLE labels (uniqueID TEXT PRIMARY KEY, text TEXT NOT NULL, team TEXT);"),
        ])
        func openNewer(at url: URL) async throws -> QSStore {
            try await QSStore.open(at: url, model: QSDataModel(propertyList: Data(newerModel.utf8), fileName: "Boards2.plist"), schema: newerSchema, types: [])
        }
        let newer = try await openNewer(at: Replica.temporaryURL())
        let newerSync = try await QSSync.attach(to: newer, transport: server)
        let family = try await newerSync.createGroup(named: "Family")
        try await newer.write { db in
            try db.execute("INSERT INTO labels (uniqueID, text, team) VALUES ('urgent', 'Urgent', ?)", [.text(family.id)])
        }.committed()
        try await newerSync.sync()

        let older = try await Self.device(server)
        #expect(try await older.sync.sync().unknownTables == ["labels"])
        try await older.store.close()
        let updated = try await openNewer(at: older.url)
        let updatedSync = try await QSSync.attach(to: updated, transport: server)
        #expect(try await updated.fetchRows("SELECT uniqueID, team FROM labels") == [[.text("urgent"), .text(family.id)]])
        try await updated.write { db in try db.execute("UPDATE labels SET text = 'Urgent!' WHERE uniqueID = 'urgent'") }.committed()
        try await updatedSync.sync()
        #expect(server.existingObjects(in: "labels", group: family.id)[.string("urgent")]?["text"] == .text("Urgent!"), "the edit went to the group")
        #expect(server.existingObjects(in: "labels").isEmpty)
        try await updated.close()
        try await newer.close()
    }
}
