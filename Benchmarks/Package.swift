// swift-tools-version: 6.2
import PackageDescription

/// The benchmarks live in their own package so that GRDB, used only for comparison,
/// never becomes a dependency of the framework.
let package = Package(
    name: "QSDataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "QSData", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLiteBench",
            path: "Sources/CSQLiteBench",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .executableTarget(
            name: "qsdata-bench",
            dependencies: [
                "CSQLiteBench",
                .product(name: "QSData", package: "QSData"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/qsdata-bench",
            resources: [.copy("Resources/Notes.plist"), .copy("Resources/GeneratedNotes.plist"), .copy("Resources/Notes.sql"), .copy("Resources/Search.sql")],
            // Generates the types of GeneratedNotes.plist, which the timeline fetch and the large save time beside hand-written ones.
            plugins: [.plugin(name: "QSDataModelPlugin", package: "QSData")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
