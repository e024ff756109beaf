import AppDataFolder
import ArgumentParser
import Foundation
import Logging
import VesperServerKit

/// `vesper-server`: runs the Vesper sync server until SIGINT or SIGTERM.
@main
struct VesperServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vesper-server",
        abstract: "The Vesper notes sync server (Examples/Vesper/PROTOCOL.md).",
        discussion: """
            The server secret signs login tokens and blob URLs and derives note-text key 0. It comes from \
            VESPER_SERVER_SECRET, or else from the file `secret` next to the database, created on first run.
            Extra note-text keys for rotation: VESPER_TEXT_KEYS="1:<base64 32 bytes>,2:<…>"; new writes use \
            the highest ID, or VESPER_TEXT_KEY_ID when set. Older rows stay readable.
            """)

    @Option(help: "The address to bind.")
    var hostname = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "The SQLite database file. Default: ~/.local/share/vesper-server/vesper-server.sqlite")
    var database: String?

    @Option(help: "The folder for attachment bytes. Default: ~/.local/share/vesper-server/attachments")
    var attachments: String?

    @Option(help: "The externally visible base URL used in blob URLs, such as https://vesper.example.com/")
    var publicURL: String?

    @Option(help: "Seconds a new connection may take to send a complete request head before it is closed.")
    var requestHeadTimeout = 5

    @Option(help: "Seconds a connection may sit idle (between requests, or within a request body) before it is closed.")
    var idleTimeout = 30

    @Option(help: "The most connections served at once; more wait to be accepted.")
    var maxConnections = 1000

    @Option(help: "Hours a login token stays valid.")
    var tokenLifetimeHours = 24

    @Option(help: "The log level.")
    var logLevel: Logger.Level = .info

    func run() async throws {
        var logger = Logger(label: "vesper-server")
        logger.logLevel = logLevel

        let dataFolder = AppDataFolder.url(for: "vesper-server")
        let databasePath = database ?? dataFolder.appendingPathComponent("vesper-server.sqlite").path
        let databaseFolder = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: databaseFolder, withIntermediateDirectories: true)
        let attachmentsPath = attachments ?? dataFolder.appendingPathComponent("attachments").path

        var configuration = VesperServerConfiguration(
            hostname: hostname, port: port, databasePath: databasePath, attachmentsPath: attachmentsPath,
            secret: try Self.secret(folder: databaseFolder, logger: logger))
        guard requestHeadTimeout > 0, idleTimeout > 0, maxConnections > 0, tokenLifetimeHours > 0 else {
            throw ValidationError("timeouts, --max-connections and --token-lifetime-hours must be positive")
        }
        configuration.connectionLimits = ConnectionLimits(
            requestHeadTimeout: .seconds(requestHeadTimeout), idleTimeout: .seconds(idleTimeout), maximumConnections: maxConnections)
        configuration.tokenLifetime = .seconds(tokenLifetimeHours * 3600)
        let environment = ProcessInfo.processInfo.environment
        if let keys = environment["VESPER_TEXT_KEYS"] {
            configuration.textKeys = try Self.parseTextKeys(keys)
        }
        configuration.currentTextKeyID = try Self.integer(environment, "VESPER_TEXT_KEY_ID")
        if let publicURL {
            guard let url = URL(string: publicURL) else { throw ValidationError("--public-url is not a URL") }
            configuration.publicBaseURL = url
        }

        let server = try VesperSyncServer(configuration: configuration, logger: logger)
        logger.info(
            "vesper-server starting",
            metadata: ["address": "\(hostname):\(port)", "database": "\(databasePath)", "attachments": "\(attachmentsPath)"])
        try await server.run()
        logger.info("vesper-server stopped")
    }

    /// VESPER_SERVER_SECRET, or the `secret` file in `folder`, created (mode 0600) when missing.
    static func secret(folder: URL, logger: Logger) throws -> String {
        if let secret = ProcessInfo.processInfo.environment["VESPER_SERVER_SECRET"], !secret.isEmpty { return secret }
        let file = folder.appendingPathComponent("secret")
        if FileManager.default.fileExists(atPath: file.path) {
            // Never replace a secret that can't be read: every login token and text key hangs on it.
            let existing = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !existing.isEmpty else { throw ValidationError("the server secret file \(file.path) is empty") }
            return existing
        }
        let secret = VesperServerConfiguration.newSecret()
        guard
            FileManager.default.createFile(
                atPath: file.path, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw ValidationError("cannot write the server secret to \(file.path)") }
        logger.notice("Created a new server secret", metadata: ["file": "\(file.path)"])
        return secret
    }

    /// The environment variable `name` as an integer, nil when unset; an error naming the
    /// variable when it is set to something else.
    static func integer(_ environment: [String: String], _ name: String) throws -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("\(name) must be a whole number, not '\(text)'")
        }
        return value
    }

    static func parseTextKeys(_ text: String) throws -> [Int: Data] {
        var keys: [Int: Data] = [:]
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let id = Int(parts[0].trimmingCharacters(in: .whitespaces)),
                let key = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces))
            else { throw ValidationError("VESPER_TEXT_KEYS must look like 1:<base64>,2:<base64>") }
            keys[id] = key
        }
        return keys
    }
}

/// `--log-level` takes exactly swift-log's level names and rejects anything else.
extension Logger.Level: @retroactive ExpressibleByArgument {}
