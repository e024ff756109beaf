// swift-tools-version: 6.2
import PackageDescription

// The two example apps that prove QSData — Vesper (notes, sync client, sync server) and an RSS
// reader — with their tests. They depend on the framework in the parent folder by path, so the
// framework's own package stays free of the packages the examples use.

/// The framework, whatever the checkout's folder is called (SwiftPM would otherwise name the
/// path dependency after the folder).
let qsData = Target.Dependency.product(name: "QSData", package: "QSData")
/// Generates the model types the data models mark with `generate`.
let modelPlugin = Target.PluginUsage.plugin(name: "QSDataModelPlugin", package: "QSData")
/// Giving up on work that may never finish, at a deadline, without waiting for it (kept in the
/// sync server's package, whose database calls use it too).
let deadline = Target.Dependency.product(name: "Deadline", package: "QSDataSyncServer")

let package = Package(
    name: "QSDataExamples",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vesper", targets: ["VesperCLI"]),
        .executable(name: "rss", targets: ["RSSCLI"]),
        .executable(name: "vesper-server", targets: ["VesperServer"]),
    ],
    dependencies: [
        .package(name: "QSData", path: ".."),
        // The generic sync server, in process for the RSS reader's sync tests.
        .package(name: "QSDataSyncServer", path: "../SyncServer"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The Vesper sync server (and swift-crypto for the sync client's MD5).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        // The sync server's PostgreSQL storage (several instances on one database).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // HTTP parts as NIO channel handlers see them (the server's connection deadlines).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The CLIs' HTTP client: NIO-based, so waiting on a slow server costs no CPU, with
        // connect, read and whole-request deadlines.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // MARK: Shared

        // Dates on the Vesper wire and the calendar arithmetic every date format here uses,
        // shared by the sync client, the sync server and the feed parser.
        .target(name: "WireDates", path: "Shared/WireDates"),
        // The shared code's tests, and the checks that the three executables' help and options agree.
        .testTarget(
            name: "SharedTests",
            dependencies: [
                "WireDates", "AppDataFolder", "CommandLineTool", "ExampleTestSupport",
                "RSSCommands", "VesperCommands", "VesperServerCommand",
            ],
            path: "Tests/SharedTests"
        ),
        // How all three executables run: an AsyncParsableCommand root, the shared options
        // (--database with the XDG default, --json), opening and closing a tool's database around
        // a command, a console commands write to (captured by tests, which run the commands
        // in-process), one-line errors.
        .target(
            name: "CommandLineTool",
            dependencies: ["AppDataFolder", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Shared/CommandLineTool"
        ),
        // The XDG data-folder rule all three executables use for their default paths.
        .target(name: "AppDataFolder", path: "Shared/AppDataFolder"),
        // What every example test target uses: temporary folders that remove themselves, a clock
        // moved by hand.
        .target(name: "ExampleTestSupport", dependencies: [deadline], path: "Tests/ExampleTestSupport"),
        // HTTP GET/POST with one overall deadline (connect, first byte, whole transfer) for the
        // command-line tools' network operations.
        .target(
            name: "DeadlineHTTP",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            path: "Shared/DeadlineHTTP"
        ),

        // MARK: Vesper

        // The app core: model types, data controller, attachment storage. The data model and
        // schema are bundled copies of DataModels/Vesper.*; VesperTests checks they are identical.
        // The model plugin generates VSNote, VSTag and VSAttachment from the data model.
        .target(
            name: "VesperCore",
            dependencies: [qsData],
            path: "Vesper/VesperCore",
            resources: [.copy("Resources/Vesper.plist"), .copy("Resources/Vesper.sql"), .copy("Resources/VesperMigrations")],
            plugins: [modelPlugin]
        ),
        // The sync client: wire objects, API calls, mergers, account.
        .target(
            name: "VesperSync",
            dependencies: ["VesperCore", "WireDates", "DeadlineHTTP", .product(name: "Crypto", package: "swift-crypto")],
            path: "Vesper/VesperSync"
        ),
        // The `vesper` commands, as a library so that tests run them in-process.
        .target(
            name: "VesperCommands",
            dependencies: [
                "VesperCore", "VesperSync", "DeadlineHTTP", "CommandLineTool",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Vesper/VesperCommands"
        ),
        .executableTarget(name: "VesperCLI", dependencies: ["VesperCommands"], path: "Vesper/VesperCLI"),

        // The `vesper-server` sync server, as a library so that tests start it in-process on a
        // free port.
        .target(
            name: "VesperServerKit",
            dependencies: [
                qsData,
                "WireDates",
                deadline,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // PostgresTransaction and DatabaseCalls, shared with the generic sync server.
                .product(name: "SyncServerKit", package: "QSDataSyncServer"),
            ],
            path: "Vesper/VesperServerKit"
        ),
        // The `vesper-server` command, as a library so that tests run it in-process.
        .target(
            name: "VesperServerCommand",
            dependencies: [
                "VesperServerKit",
                "AppDataFolder",
                "CommandLineTool",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Vesper/VesperServerCommand"
        ),
        .executableTarget(name: "VesperServer", dependencies: ["VesperServerCommand"], path: "Vesper/VesperServer"),

        // A live `vesper-server` on a free port, for the server's and the sync client's tests.
        .target(
            name: "VesperServerTestSupport",
            dependencies: [
                "VesperServerKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/VesperServerTestSupport"
        ),
        .testTarget(
            name: "VesperTests", dependencies: ["ExampleTestSupport", "VesperCore", "VesperCommands", "CommandLineTool", qsData],
            path: "Tests/VesperTests"),
        .testTarget(
            name: "VesperSyncTests",
            dependencies: [
                "ExampleTestSupport", "VesperCore", "VesperSync", "VesperCommands", "VesperServerKit",
                "VesperServerTestSupport", "DeadlineHTTP", "CommandLineTool", qsData,
            ],
            path: "Tests/VesperSyncTests"
        ),
        .testTarget(
            name: "VesperServerTests",
            dependencies: [
                "ExampleTestSupport", "VesperServerKit", "VesperServerTestSupport", "VesperServerCommand", "CommandLineTool", qsData,
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/VesperServerTests"
        ),

        // MARK: RSS reader

        // Feed parsing (Foundation and the shared calendar arithmetic, no database).
        .target(name: "FeedParser", dependencies: ["WireDates"], path: "RSS/FeedParser"),
        // The app core: model types, data controller, importer. The data model and schema are
        // bundled copies of DataModels/RSS.*; RSSTests checks they are identical. The model
        // plugin generates Feed, Article, ArticleContent and Author from the data model.
        .target(
            name: "RSSCore",
            dependencies: [qsData, .product(name: "QSDataSync", package: "QSData"), "FeedParser", "DeadlineHTTP"],
            path: "RSS/RSSCore",
            resources: [.copy("Resources/RSS.plist"), .copy("Resources/RSS.sql"), .copy("Resources/RSSMigrations")],
            plugins: [modelPlugin]
        ),
        // The `rss` commands, as a library so that tests run them in-process.
        .target(
            name: "RSSCommands",
            dependencies: [
                "RSSCore", "AppDataFolder", "DeadlineHTTP", "CommandLineTool",
                .product(name: "QSDataSync", package: "QSData"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "RSS/RSSCommands"
        ),
        .executableTarget(name: "RSSCLI", dependencies: ["RSSCommands"], path: "RSS/RSSCLI"),

        .testTarget(name: "DeadlineHTTPTests", dependencies: ["DeadlineHTTP", "ExampleTestSupport"], path: "Tests/DeadlineHTTPTests"),
        .testTarget(name: "FeedParserTests", dependencies: ["FeedParser"], path: "Tests/FeedParserTests"),
        .testTarget(
            name: "RSSTests",
            dependencies: [
                "ExampleTestSupport", "RSSCore", "RSSCommands", "FeedParser", "DeadlineHTTP", "CommandLineTool", qsData,
                .product(name: "QSDataSync", package: "QSData"),
                .product(name: "SyncServerKit", package: "QSDataSyncServer"),
                // A loopback server that serves fixture feeds to `rss refresh`.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // Compressed fixture bodies, made by NIO's own response compressor.
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/RSSTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
