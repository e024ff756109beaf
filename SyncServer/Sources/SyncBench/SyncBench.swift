import ArgumentParser
import Foundation
import Logging
import QSData
import QSDataSync
import SyncServerKit

/// `qsdata-sync-bench`: sync's figures (a first sync, an incremental one, a bulk change) through a
/// real server over HTTP, and a load test of running servers.
@main
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qsdata-sync-bench", abstract: "Measure QSData's sync and its server.",
        subcommands: [Figures.self, GroupFigures.self, Load.self], defaultSubcommand: Figures.self)
}

/// Two replicas through a server in this process: a first sync of N objects up and down, one
/// change among them, and 10,000 marked read.
struct Figures: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "First sync, incremental sync and a bulk change, timed and counted.")

    @Option(help: "Objects in the first sync.") var objects = 100_000
    @Option(help: ArgumentHelp("Use this PostgreSQL database instead of a SQLite file.", valueName: "url")) var postgres: String?

    @MainActor
    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qsdata-sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await startBenchServer(in: folder, postgres: postgres)
        let username = "bench-\(UUID().uuidString.prefix(8))"
        try await QSSyncHTTPTransport.createAccount(server: server.baseURL, username: username, password: "benchmark password")
        let token = try await QSSyncHTTPTransport.logIn(server: server.baseURL, username: username, password: "benchmark password").token
        let linkA = CountingTransport(QSSyncHTTPTransport(server: server.baseURL, token: token))
        let linkB = CountingTransport(QSSyncHTTPTransport(server: server.baseURL, token: token))
        let storeA = try await BenchModel.open(at: folder.appendingPathComponent("a.sqlite"))
        let storeB = try await BenchModel.open(at: folder.appendingPathComponent("b.sqlite"))
        let a = try await QSSync.attach(to: storeA, transport: linkA)
        let b = try await QSSync.attach(to: storeB, transport: linkB)
        print("storage: \(postgres == nil ? "SQLite" : "PostgreSQL"); \(objects) objects; SQLite \(SQLiteConnection.sqliteVersion)")

        let articles = BenchModel.articles(objects)
        try await storeA.save(articles).committed()
        try await measure("first sync up (\(objects) objects)", link: linkA) { try await a.sync() }
        try await measure("first sync down (\(objects) objects)", link: linkB) { try await b.sync() }

        var one = articles[objects / 2]
        one.title = "A new title"
        try await storeA.save(one).committed()
        try await measure("one change among \(objects), pushed", link: linkA) { try await a.sync() }
        try await measure("one change among \(objects), pulled", link: linkB) { try await b.sync() }

        let marked = articles.prefix(10_000).map(\.uniqueID)
        try await storeA.update(BenchArticle.self, ids: marked, set: ["read": true]).committed()
        try await measure("10,000 marked read, pushed", link: linkA) { try await a.sync() }
        try await measure("10,000 marked read, pulled", link: linkB) { try await b.sync() }
        let read = try await storeB.fetchRows("SELECT count(*) FROM articles WHERE read = 1")
        guard read == [[.integer(10_000)]] else { throw ValidationError("the other replica has \(read) read, not 10,000") }

        // Ordered lists: 100 folders of (up to) 1,000 articles each, each child two parts.
        let folders = 100, perFolder = min(1_000, objects / folders)
        try await storeA.writeAndWait { db in
            for folder in 0..<folders {
                try db.execute("INSERT INTO folders (uniqueID, name) VALUES (?, ?)", [.text("folder-\(folder)"), .text("Folder \(folder)")])
                for slot in 0..<perFolder {
                    try db.execute("INSERT INTO folderArticles (folderID, articleID, ix) VALUES (?, ?, ?)",
                                   [.text("folder-\(folder)"), .text(articles[folder * perFolder + slot].uniqueID), .integer(Int64(slot + 1) * 1024)])
                }
            }
        }
        try await measure("\(folders) lists of \(perFolder), pushed", link: linkA) { try await a.sync() }
        try await measure("\(folders) lists of \(perFolder), pulled", link: linkB) { try await b.sync() }
        // One article moved to the end of its folder: one position key.
        try await storeA.execute("UPDATE folderArticles SET ix = 1000000000 WHERE folderID = 'folder-0' AND articleID = ?", [.text(articles[0].uniqueID)])
        try await measure("one move in a list of \(perFolder), pushed", link: linkA) { try await a.sync() }
        try await measure("one move in a list of \(perFolder), pulled", link: linkB) { try await b.sync() }
        let last = try await storeB.fetchRows("SELECT articleID FROM folderArticles WHERE folderID = 'folder-0' ORDER BY ix DESC LIMIT 1")
        guard last == [[.text(articles[0].uniqueID)]] else { throw ValidationError("the move did not arrive: the list ends with \(last)") }

        try await storeA.close()
        try await storeB.close()
        try await server.shutdown()
    }
}

/// A server in this process on 127.0.0.1 for a figures run: a SQLite file in `folder`, or the
/// PostgreSQL database at `postgres`.
func startBenchServer(in folder: URL, postgres: String?) async throws -> RunningSyncServer {
    var logger = Logger(label: "qsdata-sync-bench")
    logger.logLevel = .warning
    let database: SyncDatabase = postgres.map { .postgres(url: $0) } ?? .sqlite(path: folder.appendingPathComponent("server.sqlite").path)
    return try await RunningSyncServer.start(SyncServer(database: database, host: "127.0.0.1", port: 0, bcryptCost: 4, logger: logger))
}

/// Times one sync and prints it with its requests, bytes and report.
@MainActor
func measure(_ name: String, link: CountingTransport, _ body: () async throws -> QSSyncReport) async throws {
    link.reset()
    let clock = ContinuousClock()
    let start = clock.now
    let report = try await body()
    let seconds = Double((clock.now - start).components.attoseconds) / 1e18 + Double((clock.now - start).components.seconds)
    print(String(format: "%-40@ %8.3f s  %@  (%d pushed, %d pulled, %d applied)",
                 name as NSString, seconds, link.summary, report.pushedObjects, report.pulledObjects, report.appliedObjects))
}
