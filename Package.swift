// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "QSData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "QSData", targets: ["QSData"]),
        .executable(name: "vesper", targets: ["VesperCLI"]),
    ],
    dependencies: [
        // Used only by the example CLIs; a client of the QSData product never builds it.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        // The `vesper` commands, as a library so that tests run them in-process.
        .target(
            name: "VesperCommands",
            dependencies: ["VesperCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
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

        // RSS reader example: feed parsing (pure Foundation, no database).
        .target(name: "FeedParser", path: "Examples/RSS/FeedParser"),
        .testTarget(name: "FeedParserTests", dependencies: ["FeedParser"], path: "Tests/FeedParserTests"),
    ],
    swiftLanguageModes: [.v6]
)
