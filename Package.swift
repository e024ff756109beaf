// swift-tools-version: 6.2
import PackageDescription

// The QSData framework alone: the library, its SQLite system module, its model code generator
// and plugins, and its tests. It depends on SQLite and the toolchain only, so an app that
// depends on QSData fetches and builds nothing else (and builds the generator only when it
// applies a plugin). The example apps live in their own package under Examples/.
let package = Package(
    name: "QSData",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "QSData", targets: ["QSData"]),
        // Sync of the types a data model marks `synced`, through a server that speaks the
        // protocol in Docs/SyncProtocol.md (the server is its own package, SyncServer/). An app
        // that does not sync does not build it.
        .library(name: "QSDataSync", targets: ["QSDataSync"]),
        // Generates the model types a target's data model marks with `generate`, at build time.
        .plugin(name: "QSDataModelPlugin", targets: ["QSDataModelPlugin"]),
        // The same, as `swift package generate-model-types`, for apps that commit the Swift.
        .plugin(name: "QSDataModelCommand", targets: ["QSDataModelCommand"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite/include",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "QSData", dependencies: ["CSQLite"], path: "Sources/QSData"),
        .target(name: "QSDataSync", dependencies: ["QSData", "CSQLite"], path: "Sources/QSDataSync"),

        // MARK: Model code generation

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

        // MARK: Tests

        // The samples of the README and of every DocC article, compiled (the README's and the
        // guide's run too), and a check that the documents show exactly this code.
        .testTarget(name: "DocumentationSampleTests", dependencies: ["QSData"], path: "Tests/DocumentationSampleTests"),
        .testTarget(
            name: "ArticleSamples", dependencies: ["QSData", "QSDataSync"], path: "Tests/ArticleSamples",
            resources: [.copy("DeleteRules.plist")], plugins: [.plugin(name: "QSDataModelPlugin")]),
        .testTarget(
            name: "ReadmeSamples", dependencies: ["QSData", "TestSupport"], path: "Tests/ReadmeSamples",
            resources: [.copy("Notes.plist"), .copy("Notes.sql")], plugins: [.plugin(name: "QSDataModelPlugin")]),
        .testTarget(
            name: "GuideSamples", dependencies: ["QSData", "TestSupport"], path: "Tests/GuideSamples",
            resources: [.copy("Notes.plist"), .copy("Notes.sql")], plugins: [.plugin(name: "QSDataModelPlugin")]),
        .testTarget(
            name: "QSDataSyncTests", dependencies: ["QSDataSync", "QSDataSyncTestSupport", "QSDataSyncCrashWriter", "TestSupport"],
            path: "Tests/QSDataSyncTests"),
        // A process that saves synced objects until it is killed, for the sync's crash test.
        .executableTarget(
            name: "QSDataSyncCrashWriter", dependencies: ["QSDataSync", "QSDataSyncTestSupport"], path: "Tests/QSDataSyncCrashWriter"),
        // The synced board model the sync tests and the crash writer share, and a server in memory.
        .target(name: "QSDataSyncTestSupport", dependencies: ["QSData", "QSDataSync"], path: "Tests/QSDataSyncTestSupport"),
        .testTarget(
            name: "QSDataTests", dependencies: ["QSData", "QSDataCrashWriter", "QSDataSecondWriter", "QSDataTodoModel", "TestSupport"],
            path: "Tests/QSDataTests"),
        // A process that writes until it is killed, for QSDataTests' crash-safety test.
        .executableTarget(name: "QSDataCrashWriter", dependencies: ["QSData"], path: "Tests/QSDataCrashWriter"),
        // A second process that writes a store QSDataTests holds open, for the tests of other writers.
        .executableTarget(name: "QSDataSecondWriter", dependencies: ["QSData", "QSDataTodoModel"], path: "Tests/QSDataSecondWriter"),
        // What the test targets share: the folder each test process keeps its files in (removed
        // when the process exits), and child processes started without Foundation's `Process`.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // The to-do model that QSDataTests and QSDataSecondWriter share.
        .target(name: "QSDataTodoModel", dependencies: ["QSData"], path: "Tests/QSDataTodoModel"),
        // The generator's output compared with golden files, and its errors for bad models. The
        // tests run the QSDataModelGenerator executable, which the build makes for the plugin that
        // QSDataGeneratedTypesTests applies (a dependency on it would link its code twice).
        .testTarget(
            name: "QSDataModelGeneratorTests",
            dependencies: ["QSData", "QSDataModelCodeGen", "TestSupport"],
            path: "Tests/QSDataModelGeneratorTests",
            exclude: ["Golden"]
        ),
        // Types generated by the build plugin from Library.plist, used through a real store.
        .testTarget(
            name: "QSDataGeneratedTypesTests",
            dependencies: ["QSData", "TestSupport"],
            path: "Tests/QSDataGeneratedTypesTests",
            resources: [.copy("Library.plist"), .copy("Library.sql")],
            plugins: [.plugin(name: "QSDataModelPlugin")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
