// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "QSData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "QSData", targets: ["QSData"]),
        // Generates the model types a target's data model marks with `generate`, at build time.
        .plugin(name: "QSDataModelPlugin", targets: ["QSDataModelPlugin"]),
        // The same, as `swift package generate-model-types`, for apps that commit the Swift.
        .plugin(name: "QSDataModelCommand", targets: ["QSDataModelCommand"]),
        .executable(name: "vesper", targets: ["VesperCLI"]),
        .executable(name: "rss", targets: ["RSSCLI"]),
        .executable(name: "vesper-server", targets: ["VesperServer"]),
    ],
    dependencies: [
        // Used only by the example CLIs; a client of the QSData product never builds it.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Used only by the Vesper sync server (and swift-crypto by the sync client, for MD5).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite/include",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "QSData", dependencies: ["CSQLite"], path: "Sources/QSData"),

        // MARK: Model code generation (built only for a target that applies one of the plugins)

        // Turns a loaded data model into Swift source.
        .target(name: "QSDataModelCodeGen", dependencies: ["QSData"], path: "Sources/QSDataModelCodeGen"),
        // Reads a plist with QSData's own loader and writes the generated Swift.
        .executableTarget(
            name: "QSDataModelGenerator",
            dependencies: ["QSData", "QSDataModelCodeGen"],
            path: "Sources/QSDataModelGenerator"
        ),
        .plugin(
            name: "QSDataModelPlugin",
            capability: .buildTool(),
            dependencies: ["QSDataModelGenerator"],
            path: "Sources/QSDataModelPlugin"
        ),
        .plugin(
            name: "QSDataModelCommand",
            capability: .command(
                intent: .custom(verb: "generate-model-types", description: "Write the Swift of the model types each data model marks with 'generate'"),
                permissions: [.writeToPackageDirectory(reason: "It writes <Model>+Generated.swift beside each target's sources.")]
            ),
            dependencies: ["QSDataModelGenerator"],
            path: "Sources/QSDataModelCommand"
        ),

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

        .testTarget(name: "QSDataTests", dependencies: ["QSData", "QSDataCrashWriter"], path: "Tests/QSDataTests"),
        // A process that writes until it is killed, for QSDataTests' crash-safety test.
        .executableTarget(name: "QSDataCrashWriter", dependencies: ["QSData"], path: "Tests/QSDataCrashWriter"),
        // The generator's output compared with golden files, and its errors for bad models.
        .testTarget(
            name: "QSDataModelGeneratorTests",
            dependencies: ["QSData", "QSDataModelCodeGen", "QSDataModelGenerator"],
            path: "Tests/QSDataModelGeneratorTests",
            exclude: ["Golden"]
        ),
        // Types generated by the build plugin from Library.plist, used through a real store.
        .testTarget(
            name: "QSDataGeneratedTypesTests",
            dependencies: ["QSData"],
            path: "Tests/QSDataGeneratedTypesTests",
            resources: [.copy("Library.plist"), .copy("Library.sql")],
            plugins: [.plugin(name: "QSDataModelPlugin")]
        ),
        .testTarget(
            name: "VesperTests",
            dependencies: ["VesperCore", "VesperCommands"],
            path: "Tests/VesperTests"
        ),
        .testTarget(
            name: "VesperSyncTests",
            dependencies: ["VesperCore", "VesperSync", "VesperCommands", "VesperServerKit"],
            path: "Tests/VesperSyncTests"
        ),

        // The `vesper-server` sync server (VESPER-SYNC-PROTOCOL.md), as a library so that tests
        // start it in-process on a free port.
        .target(
            name: "VesperServerKit",
            dependencies: [
                "QSData",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Examples/Vesper/VesperServerKit"
        ),
        .executableTarget(
            name: "VesperServer",
            dependencies: [
                "VesperServerKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/Vesper/VesperServer"
        ),
        .testTarget(
            name: "VesperServerTests",
            dependencies: ["VesperServerKit", "QSData", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/VesperServerTests"
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
