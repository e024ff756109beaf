import ArgumentParser
import Foundation
import Logging
import SyncServerKit

/// `qsdata-sync-server`: the QSData sync protocol's server.
@main
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qsdata-sync-server",
        abstract: "Serve QSData's sync protocol (Docs/SyncProtocol.md) over HTTP.",
        discussion: """
            With --database PATH (the default: qsdata-sync-server/sync.sqlite in the XDG data folder) one \
            instance keeps everything in a SQLite file. With --postgres URL any number of instances share \
            one PostgreSQL database; put them behind a proxy such as nginx (see SyncServer/README.md).
            """)

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 for any free one).") var port = 8090
    @Option(help: ArgumentHelp("The SQLite database file.", valueName: "path")) var database: String?
    @Option(help: ArgumentHelp("A PostgreSQL URL: postgres://user:password@host:port/database?sslmode=disable", valueName: "url"))
    var postgres: String?
    @Option(help: ArgumentHelp("Days a login lasts.", valueName: "days")) var sessionDays: Double = 30
    @Option(help: ArgumentHelp(
        "Days a device may go without syncing before deletions it has not pulled are removed anyway (it then pulls everything again).",
        valueName: "days"))
    var inactiveDays: Double = 90
    @Option(help: ArgumentHelp("bcrypt's cost for password hashes (4–31).", valueName: "cost")) var bcryptCost: UInt8 = 10
    @Option(help: ArgumentHelp(
        "Seconds a PostgreSQL call may take before the request is answered 503 (the database is down or frozen).",
        valueName: "seconds"))
    var databaseTimeout = 10
    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level")) var logLevel = "info"

    func validate() throws {
        if database != nil, postgres != nil { throw ValidationError("give --database or --postgres, not both") }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost is 4–31") }
        guard sessionDays > 0 else { throw ValidationError("--session-days must be positive") }
        guard inactiveDays > 0 else { throw ValidationError("--inactive-days must be positive") }
        guard (1...86_400).contains(databaseTimeout) else { throw ValidationError("--database-timeout is 1–86400 seconds") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
    }

    func run() async throws {
        var logger = Logger(label: "qsdata-sync-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let store: SyncDatabase
        if let postgres {
            store = .postgres(url: postgres)
        } else {
            store = .sqlite(path: try database ?? Self.defaultDatabasePath())
        }
        let server = try SyncServer(
            database: store, host: host, port: port, bcryptCost: bcryptCost, sessionLifetime: sessionDays * 24 * 60 * 60,
            inactiveAfter: inactiveDays * 24 * 60 * 60, databaseTimeout: .seconds(databaseTimeout), logger: logger)
        logger.info("qsdata-sync-server on \(host):\(port)")
        try await server.run()
    }

    /// `$XDG_DATA_HOME/qsdata-sync-server/sync.sqlite` (or under `~/.local/share`), its folder made.
    static func defaultDatabasePath() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        let folder = URL(fileURLWithPath: base).appendingPathComponent("qsdata-sync-server")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("sync.sqlite").path
    }
}
