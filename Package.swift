// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "QSData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "QSData", targets: ["QSData"]),
        .executable(name: "vesper", targets: ["VesperCLI"]),
        .executable(name: "rss", targets: ["RSSCLI"]),
    ],
    dependencies: [
        // Used only by the example CLIs; a client of the QSData product never builds it.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // MD5 of attachment files for the blob upload (Vesper sync client).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite/include",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "QSData", dependencies: ["CSQLite"], path: "Sources/QSData"),

        // MARK: Vesper example

        // The app core: model types, data controller, attachment storage. The data model and
        // schema are bundled copies of DataModels/Vesper.*; VesperTests checks they are identical.
        .target(
            name: "VesperCore",
            dependencies: ["QSData"],
            path: "Examples/Vesper/VesperCore",
            resources: [.copy("Resources/Vesper.plist"), .copy("Resources/Vesper.sql")]
        ),
        // The sync client (VESPER-SYNC-PROTOCOL.md): wire objects, API calls, mergers, account.
        .target(
            name: "VesperSync",
            dependencies: ["VesperCore", .product(name: "Crypto", package: "swift-crypto")],
            path: "Examples/Vesper/VesperSync"
        ),
        // The `vesper` commands, as a library so that tests run them in-process.
        .target(
            name: "VesperCommands",
            dependencies: ["VesperCore", "VesperSync", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/Vesper/VesperCommands"
        ),
        .executableTarget(
            name: "VesperCLI",
            dependencies: ["VesperCommands"],
            path: "Examples/Vesper/VesperCLI"
        ),

        .testTarget(name: "QSDataTests", dependencies: ["QSData"], path: "Tests/QSDataTests"),
        .testTarget(
            name: "VesperTests",
            dependencies: ["VesperCore", "VesperCommands"],
            path: "Tests/VesperTests"
        ),
        .testTarget(
            name: "VesperSyncTests",
            dependencies: ["VesperCore", "VesperSync", "VesperCommands"],
            path: "Tests/VesperSyncTests"
        ),

        // MARK: RSS reader example

        // Feed parsing (pure Foundation, no database).
        .target(name: "FeedParser", path: "Examples/RSS/FeedParser"),
        .testTarget(name: "FeedParserTests", dependencies: ["FeedParser"], path: "Tests/FeedParserTests"),
        // The app core: model types, data controller, importer. The data model and schema are
        // bundled copies of DataModels/RSS.*; RSSTests checks they are identical.
        .target(
            name: "RSSCore",
            dependencies: ["QSData", "FeedParser"],
            path: "Examples/RSS/RSSCore",
            resources: [.copy("Resources/RSS.plist"), .copy("Resources/RSS.sql")]
        ),
        // The `rss` commands, as a library so that tests run them in-process.
        .target(
            name: "RSSCommands",
            dependencies: ["RSSCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/RSS/RSSCommands"
        ),
        .executableTarget(name: "RSSCLI", dependencies: ["RSSCommands"], path: "Examples/RSS/RSSCLI"),
        .testTarget(
            name: "RSSTests",
            dependencies: ["RSSCore", "RSSCommands", "FeedParser"],
            path: "Tests/RSSTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
