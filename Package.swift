// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "QSData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "QSData", targets: ["QSData"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite/include",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "QSData", dependencies: ["CSQLite"], path: "Sources/QSData"),
        .testTarget(name: "QSDataTests", dependencies: ["QSData"], path: "Tests/QSDataTests"),

        // RSS reader example: feed parsing (pure Foundation, no database).
        .target(name: "FeedParser", path: "Examples/RSS/FeedParser"),
        .testTarget(name: "FeedParserTests", dependencies: ["FeedParser"], path: "Tests/FeedParserTests"),
    ],
    swiftLanguageModes: [.v6]
)
