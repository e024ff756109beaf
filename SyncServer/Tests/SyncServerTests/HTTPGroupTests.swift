import Foundation
import QSData
import QSDataSync
import SyncServerKit
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Groups end to end: two people's stores syncing through QSSync and the URLSession transport
/// with the live server, a shared card's bytes included.
@MainActor
struct HTTPGroupTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>
          <key>Card</key><dict>
            <key>table</key><string>cards</string>
            <key>synced</key><true/>
            <key>syncGroup</key><string>team</string>
            <key>syncedBlobs</key><dict><key>cover</key><string>eager</string></dict>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>title</key><string>string</string>
              <key>team</key><string>string?</string>
              <key>cover</key><string>data?</string>
            </dict>
          </dict>
        </dict></dict></plist>
        """

    static func device(_ server: URL, _ username: String) async throws -> (store: QSStore, sync: QSSync) {
        try await QSSyncHTTPTransport.createAccount(server: server, username: username, password: "correct horse")
        let token = try await QSSyncHTTPTransport.logIn(server: server, username: username, password: "correct horse").token
        let url = TestFiles.temporaryURL()
        let store = try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(model.utf8), fileName: "Cards.plist"),
            schema: QSSchema(creationSQL: "CREATE TABLE cards (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL, team TEXT, cover BLOB);"), types: [])
        return (store, try await QSSync.attach(to: store, transport: QSSyncHTTPTransport(server: server, token: token)))
    }

    @Test func aSharedCardAndItsBytesReachAMemberAndLeaveWhenTheMemberIsTakenOut() async throws {
        let server = try await TestServer.start()
        do {
            let ann = try await Self.device(server.baseURL, "ann"), bob = try await Self.device(server.baseURL, "bob")
            let family = try await ann.sync.createGroup(named: "Family")
            try await ann.sync.addMember("bob", to: family.id)
            #expect(try await bob.sync.groups() == [SyncGroup(id: family.id, name: "Family", owner: "ann", members: ["ann", "bob"])])
            let cover = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try await ann.store.write { db in
                try db.execute("INSERT INTO cards (uniqueID, title, team, cover) VALUES (1, 'shared', ?, ?)", [.text(family.id), .blob(cover)])
                try db.execute("INSERT INTO cards (uniqueID, title) VALUES (2, 'ann''s own')")
            }.committed()
            try await ann.sync.sync()
            let report = try await bob.sync.sync()
            #expect(report.blobsDownloaded == 1)
            #expect(try await bob.store.fetchRows("SELECT uniqueID, title, team, cover FROM cards") == [
                [.integer(1), .text("shared"), .text(family.id), .blob(cover)],
            ])

            _ = try await ann.sync.removeMember("bob", from: family.id)
            #expect(try await bob.sync.sync().objectsRemovedWithGroups == 1)
            #expect(try await bob.store.fetchRows("SELECT count(*) FROM cards") == [[.integer(0)]])
            await #expect(throws: QSSyncError.server(
                status: 403, code: "notAMember",
                message: "this account is not a member of group \(family.id): its objects are not this account's to read or write")) {
                _ = try await bob.sync.transport.pull(since: nil, limit: 10, replica: nil, group: family.id)
            }
            try await ann.store.close()
            try await bob.store.close()
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }
}
