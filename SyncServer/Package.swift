// swift-tools-version: 6.2
import PackageDescription

// The QSData sync server: the protocol of Docs/SyncProtocol.md on Hummingbird, with SQLite (one
// instance, no setup) or PostgreSQL (several stateless instances on one database). Its own
// package, so that the framework's stays free of server dependencies; it depends on the
// framework by path for the protocol's wire types and its one merge function (QSDataSync).
let package = Package(
    name: "QSDataSyncServer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SyncServerKit", targets: ["SyncServerKit"]),
        .library(name: "Deadline", targets: ["Deadline"]),
        .executable(name: "qsdata-sync-server", targets: ["QSDataSyncServer"]),
        .executable(name: "qsdata-sync-bench", targets: ["SyncBench"]),
    ],
    dependencies: [
        .package(name: "QSData", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // Storage (SQLite, PostgreSQL), the service (accounts, sessions, push, pull) and its HTTP face.
        .target(
            name: "SyncServerKit",
            dependencies: [
                .product(name: "QSData", package: "QSData"),
                .product(name: "QSDataSync", package: "QSData"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                "Deadline",
            ],
            path: "Sources/SyncServerKit"
        ),
        // Giving up on work that may never finish, at a deadline, without waiting for it: the
        // servers' database calls, the Vesper server's shutdown, the example tests' waits.
        .target(name: "Deadline", path: "Sources/Deadline"),
        .executableTarget(
            name: "QSDataSyncServer",
            dependencies: [
                "SyncServerKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/QSDataSyncServer"
        ),
        // Sync's figures through a server in process, and a load test of running servers.
        .executableTarget(
            name: "SyncBench",
            dependencies: [
                "SyncServerKit",
                .product(name: "QSData", package: "QSData"),
                .product(name: "QSDataSync", package: "QSData"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/SyncBench"
        ),
        .testTarget(
            name: "SyncServerTests",
            dependencies: [
                "SyncServerKit",
                .product(name: "QSData", package: "QSData"),
                .product(name: "QSDataSync", package: "QSData"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/SyncServerTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
