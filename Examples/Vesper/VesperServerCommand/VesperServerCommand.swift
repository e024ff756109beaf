import AppDataFolder
import ArgumentParser
import CommandLineTool
import Foundation
import Logging
import VesperServerKit

/// `vesper-server`: runs the Vesper sync server until SIGINT or SIGTERM.
public struct VesperServerCommand: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vesper-server",
        abstract: "The Vesper notes sync server, built on QSData.",
        discussion: ToolHelp.discussion(
            """
            Serves the Vesper sync protocol (Examples/Vesper/PROTOCOL.md) until SIGINT or SIGTERM, \
            storing accounts and notes in a SQLite file (one instance) or PostgreSQL (any number of \
            instances on one database).
            """,
            examples: [
                "vesper-server --port 8080",
                "vesper-server --database postgres://vesper:secret@db.internal/vesper",
            ],
            details: """
                The server secret signs login tokens and blob URLs and derives note-text key 0. It comes from \
                VESPER_SERVER_SECRET; with SQLite, else from the file `secret` next to the database, created on \
                first run. With PostgreSQL it is required, the same on every instance.
                Extra note-text keys for rotation: VESPER_TEXT_KEYS="1:<base64 32 bytes>,2:<…>"; new writes use \
                the highest ID, or VESPER_TEXT_KEY_ID when set. Older rows stay readable.
                Each of these settings may also come from a --config file of KEY=value lines (# comments); \
                the environment wins over the file.
                """))

    @Option(help: "The address to bind.")
    var hostname = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @OptionGroup var storage: DatabaseOptions<ServerDatabase>

    @Option(help: ArgumentHelp(
        "A file of KEY=value settings (DATABASE_URL, VESPER_SERVER_SECRET, VESPER_TEXT_KEYS, VESPER_TEXT_KEY_ID).",
        valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp(
        "The folder for attachment bytes.",
        discussion: "Default: $XDG_DATA_HOME/vesper-server/attachments, else ~/.local/share/vesper-server/attachments.",
        valueName: "path"))
    var attachments: String?

    @Option(help: "The externally visible base URL used in blob URLs, such as https://vesper.example.com/")
    var publicURL: String?

    @Option(help: "Seconds a new connection may take to send a complete request head before it is closed.")
    var requestHeadTimeout = 5

    @Option(help: "Seconds a connection may sit idle (between requests, or within a request body) before it is closed.")
    var idleTimeout = 30

    @Option(help: "The most connections served at once; more wait to be accepted.")
    var maxConnections = 1000

    @Option(help: ArgumentHelp(
        "The most connections one client address may hold open; more are closed at once.",
        discussion: "Behind a reverse proxy every client has the proxy's address: set it to --max-connections there."))
    var maxConnectionsPerAddress = 100

    @Option(help: "Seconds a request body may take to arrive in all before the request is answered 408 and closed.")
    var requestBodyTimeout = 600

    @Option(help: ArgumentHelp(
        "The slowest a request body may arrive, in bytes a second, after --body-rate-grace seconds of waiting; slower is answered 408 and closed.",
        valueName: "bytes"))
    var minimumBodyRate = 10_000

    @Option(help: "Seconds of waiting any request body is allowed before --minimum-body-rate applies.")
    var bodyRateGrace = 10

    @Option(help: "Seconds a call to PostgreSQL may take before it is cancelled and the request answered 503.")
    var databaseTimeout = 10

    @Option(help: "Hours a login token stays valid.")
    var tokenLifetimeHours = 24

    @Option(
        help: """
            Failed logins allowed per username from one client address in a minute (ten times as many per \
            address over all usernames), and account creations per address; more get 429.
            """)
    var loginAttemptsPerMinute = 10

    @Option(help: "The log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    public init() {}

    public func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (0: any free port)") }
        guard requestHeadTimeout > 0, idleTimeout > 0 else {
            throw ValidationError("--request-head-timeout and --idle-timeout must be positive")
        }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive") }
        guard maxConnectionsPerAddress > 0 else { throw ValidationError("--max-connections-per-address must be positive") }
        guard requestBodyTimeout > 0, minimumBodyRate > 0, bodyRateGrace > 0 else {
            throw ValidationError("--request-body-timeout, --minimum-body-rate and --body-rate-grace must be positive")
        }
        guard databaseTimeout > 0 else { throw ValidationError("--database-timeout must be positive") }
        guard tokenLifetimeHours > 0 else { throw ValidationError("--token-lifetime-hours must be positive") }
        guard loginAttemptsPerMinute > 0 else { throw ValidationError("--login-attempts-per-minute must be positive") }
        if let publicURL, URL(string: publicURL) == nil { throw ValidationError("--public-url is not a URL") }
    }

    public func run() async throws {
        var logger = Logger(label: "vesper-server")
        logger.logLevel = logLevel

        // Every setting is read and checked before anything is created on disk.
        let settings = try ServerSettings(file: config)
        let textKeys = try settings["VESPER_TEXT_KEYS"].map(ServerSettings.textKeys)
        let currentTextKeyID = try settings.integer("VESPER_TEXT_KEY_ID")
        let dataFolder = AppDataFolder.url(for: ServerDatabase.name)
        let database = VesperDatabase(storage.database ?? settings["DATABASE_URL"] ?? storage.databaseURL.path)
        let attachmentsPath = attachments ?? dataFolder.appendingPathComponent("attachments").path
        let secret: String?
        switch database {
        case .sqlite(let path):
            let databaseFolder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: databaseFolder, withIntermediateDirectories: true)
            secret = try settings["VESPER_SERVER_SECRET"] ?? Self.secret(folder: databaseFolder, logger: logger)
        case .postgres:
            secret = settings["VESPER_SERVER_SECRET"]
        }

        var configuration = VesperServerConfiguration(
            hostname: hostname, port: port, database: database, attachmentsPath: attachmentsPath, secret: secret)
        configuration.loginAttemptsPerMinute = loginAttemptsPerMinute
        configuration.connectionLimits = ConnectionLimits(
            requestHeadTimeout: .seconds(requestHeadTimeout), idleTimeout: .seconds(idleTimeout), maximumConnections: maxConnections,
            maximumConnectionsPerAddress: maxConnectionsPerAddress, requestBodyTimeout: .seconds(requestBodyTimeout),
            minimumBodyBytesPerSecond: minimumBodyRate, bodyRateGrace: .seconds(bodyRateGrace))
        configuration.tokenLifetime = .seconds(tokenLifetimeHours * 3600)
        configuration.databaseTimeout = .seconds(databaseTimeout)
        if let textKeys { configuration.textKeys = textKeys }
        configuration.currentTextKeyID = currentTextKeyID
        configuration.publicBaseURL = publicURL.flatMap { URL(string: $0) }

        let server = try VesperSyncServer(configuration: configuration, logger: logger)
        logger.info(
            "vesper-server starting",
            metadata: ["address": "\(hostname):\(port)", "database": "\(database)", "attachments": "\(attachmentsPath)"])
        try await server.run()
        logger.info("vesper-server stopped")
    }

    /// The `secret` file in `folder`, created (mode 0600) when missing.
    static func secret(folder: URL, logger: Logger) throws -> String {
        let file = folder.appendingPathComponent("secret")
        if FileManager.default.fileExists(atPath: file.path) {
            // Never replace a secret that can't be read: every login token and text key hangs on it.
            let existing = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !existing.isEmpty else { throw ServerSetupError.emptySecretFile(file.path) }
            return existing
        }
        let secret = VesperServerConfiguration.newSecret()
        guard
            FileManager.default.createFile(
                atPath: file.path, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw ServerSetupError.cannotWriteSecret(file.path) }
        logger.notice("Created a new server secret", metadata: ["file": "\(file.path)"])
        return secret
    }
}

/// `--log-level` takes exactly swift-log's level names and rejects anything else.
extension Logger.Level: @retroactive ExpressibleByArgument {}
