import ArgumentParser
import Foundation
import QSData
import QSDataSync
import SyncServerKit

/// `qsdata-sync-bench groups`: the same N cards synced as the account's own (to its second
/// device) and shared in a group (to another account's device), one change each way, and the
/// member taken out — so the cost of syncing per space is seen beside the account's own.
struct GroupFigures: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups", abstract: "Objects of the account's own and of a group, synced, changed, and a member taken out.")

    @Option(help: "Cards in each space.") var objects = 10_000
    @Option(help: ArgumentHelp("Use this PostgreSQL database instead of a SQLite file.", valueName: "url")) var postgres: String?

    static let model = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>
          <key>Card</key><dict>
            <key>table</key><string>cards</string>
            <key>synced</key><true/>
            <key>syncGroup</key><string>team</string>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>title</key><string>string</string>
              <key>done</key><string>boolean</string>
              <key>team</key><string>string?</string>
            </dict>
          </dict>
        </dict></dict></plist>
        """

    @MainActor
    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qsdata-sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await startBenchServer(in: folder, postgres: postgres)
        let run = UUID().uuidString.prefix(8).lowercased()
        let ann = "ann-\(run)", bob = "bob-\(run)"
        func device(_ username: String, _ name: String) async throws -> (store: QSStore, sync: QSSync, link: CountingTransport) {
            let token = try await QSSyncHTTPTransport.logIn(server: server.baseURL, username: username, password: "benchmark password").token
            let link = CountingTransport(QSSyncHTTPTransport(server: server.baseURL, token: token))
            let store = try await QSStore.open(
                at: folder.appendingPathComponent("\(name).sqlite"), model: QSDataModel(propertyList: Data(Self.model.utf8), fileName: "Cards.plist"),
                schema: QSSchema(creationSQL: "CREATE TABLE cards (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, team TEXT);"),
                types: [])
            return (store, try await QSSync.attach(to: store, transport: link), link)
        }
        for username in [ann, bob] {
            try await QSSyncHTTPTransport.createAccount(server: server.baseURL, username: username, password: "benchmark password")
        }
        let a = try await device(ann, "a"), a2 = try await device(ann, "a2"), b = try await device(bob, "b")
        print("storage: \(postgres == nil ? "SQLite" : "PostgreSQL"); \(objects) cards in each space; SQLite \(SQLiteConnection.sqliteVersion)")
        for device in [a, a2, b] { try await device.sync.sync() }
        let family = try await a.sync.createGroup(named: "Family")
        try await a.sync.addMember(bob, to: family.id)

        try await insert(1...objects, team: nil, into: a.store)
        try await measure("\(objects) own, pushed", link: a.link) { try await a.sync.sync() }
        try await measure("\(objects) own, pulled (same account)", link: a2.link) { try await a2.sync.sync() }
        try await insert((objects + 1)...(2 * objects), team: family.id, into: a.store)
        try await measure("\(objects) in a group, pushed", link: a.link) { try await a.sync.sync() }
        try await measure("\(objects) in a group, pulled (a member)", link: b.link) { try await b.sync.sync() }
        try await measure("\(objects) in a group, pulled (the owner's other device)", link: a2.link) { try await a2.sync.sync() }

        try await a.store.write { db in try db.execute("UPDATE cards SET title = 'changed' WHERE uniqueID = ?", [.integer(Int64(objects / 2))]) }.committed()
        try await measure("one own change, pushed", link: a.link) { try await a.sync.sync() }
        try await measure("one own change, pulled", link: a2.link) { try await a2.sync.sync() }
        try await b.store.write { db in try db.execute("UPDATE cards SET title = 'changed' WHERE uniqueID = ?", [.integer(Int64(objects + objects / 2))]) }.committed()
        try await measure("one group change, pushed (the member)", link: b.link) { try await b.sync.sync() }
        try await measure("one group change, pulled (the owner)", link: a.link) { try await a.sync.sync() }
        try await measure("nothing new, own and one group", link: a.link) { try await a.sync.sync() }

        try await a.sync.removeMember(bob, from: family.id)
        try await measure("the member taken out: its copy removed", link: b.link) { try await b.sync.sync() }
        let left = try await b.store.fetchRows("SELECT count(*) FROM cards")
        guard left == [[.integer(0)]] else { throw ValidationError("the member taken out still holds \(left) cards") }
        for device in [a, a2, b] { try await device.store.close() }
        try await server.shutdown()
    }

    private func insert(_ ids: ClosedRange<Int>, team: String?, into store: QSStore) async throws {
        try await store.write { db in
            let insert = try db.statement("INSERT INTO cards (uniqueID, title, team) VALUES (?, ?, ?)")
            for id in ids { try insert.run([.integer(Int64(id)), .text("card \(id)"), team.map { .text($0) } ?? .null]) }
        }.committed()
    }
}
