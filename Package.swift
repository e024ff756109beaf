// swift-tools-version: 6.2
import PackageDescription

// The QSData framework alone: the library, its SQLite system module and its tests.
// It depends on SQLite and the toolchain only, so an app that depends on QSData fetches and
// builds nothing else. The example apps live in their own package under Examples/.
let package = Package(
    name: "QSData",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
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

        .testTarget(name: "QSDataTests", dependencies: ["QSData", "QSDataCrashWriter"], path: "Tests/QSDataTests"),
        // A process that writes until it is killed, for QSDataTests' crash-safety test.
        .executableTarget(name: "QSDataCrashWriter", dependencies: ["QSData"], path: "Tests/QSDataCrashWriter"),
    ],
    swiftLanguageModes: [.v6]
)
