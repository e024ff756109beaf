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
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The Vesper sync server (and swift-crypto for the sync client's MD5).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        // MARK: Vesper

        // The app core: model types, data controller, attachment storage. The data model and
        // schema are bundled copies of DataModels/Vesper.*; VesperTests checks they are identical.
        // The model plugin generates VSNote, VSTag and VSAttachment from the data model.
        .target(
            name: "VesperCore",
            dependencies: [qsData],
            path: "Vesper/VesperCore",
            resources: [.copy("Resources/Vesper.plist"), .copy("Resources/Vesper.sql")],
            plugins: [modelPlugin]
        ),
        // The sync client: wire objects, API calls, mergers, account.
        .target(
            name: "VesperSync",
            dependencies: ["VesperCore", .product(name: "Crypto", package: "swift-crypto")],
            path: "Vesper/VesperSync"
        ),
        // The `vesper` commands, as a library so that tests run them in-process.
        .target(
            name: "VesperCommands",
            dependencies: ["VesperCore", "VesperSync", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Vesper/VesperCommands"
        ),
        .executableTarget(name: "VesperCLI", dependencies: ["VesperCommands"], path: "Vesper/VesperCLI"),

        // The `vesper-server` sync server, as a library so that tests start it in-process on a
        // free port.
        .target(
            name: "VesperServerKit",
            dependencies: [
                qsData,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Vesper/VesperServerKit"
        ),
        .executableTarget(
            name: "VesperServer",
            dependencies: [
                "VesperServerKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Vesper/VesperServer"
        ),

        .testTarget(name: "VesperTests", dependencies: ["VesperCore", "VesperCommands", qsData], path: "Tests/VesperTests"),
        .testTarget(
            name: "VesperSyncTests",
            dependencies: ["VesperCore", "VesperSync", "VesperCommands", "VesperServerKit", qsData],
            path: "Tests/VesperSyncTests"
        ),
        .testTarget(
            name: "VesperServerTests",
            dependencies: ["VesperServerKit", qsData, .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/VesperServerTests"
        ),

        // MARK: RSS reader

        // Feed parsing (pure Foundation, no database).
        .target(name: "FeedParser", path: "RSS/FeedParser"),
        // The app core: model types, data controller, importer. The data model and schema are
        // bundled copies of DataModels/RSS.*; RSSTests checks they are identical. The model
        // plugin generates Feed, Article, ArticleContent and Author from the data model.
        .target(
            name: "RSSCore",
            dependencies: [qsData, "FeedParser"],
            path: "RSS/RSSCore",
            resources: [.copy("Resources/RSS.plist"), .copy("Resources/RSS.sql"), .copy("Resources/RSSMigrations")],
            plugins: [modelPlugin]
        ),
        // The `rss` commands, as a library so that tests run them in-process.
        .target(
            name: "RSSCommands",
            dependencies: ["RSSCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "RSS/RSSCommands"
        ),
        .executableTarget(name: "RSSCLI", dependencies: ["RSSCommands"], path: "RSS/RSSCLI"),

        .testTarget(name: "FeedParserTests", dependencies: ["FeedParser"], path: "Tests/FeedParserTests"),
        .testTarget(
            name: "RSSTests",
            dependencies: [
                "RSSCore", "RSSCommands", "FeedParser", qsData,
                // A loopback server that serves fixture feeds to `rss refresh`.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/RSSTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
