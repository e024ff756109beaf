import Foundation
import PackagePlugin

/// Generates the Swift types that a target's data models mark with `generate`.
///
/// Every `.plist` file of the target (usually a resource the app also loads at run time) is read
/// as a QSData data model by `QSDataModelGenerator`, which writes `<Model>+Generated.swift` into
/// the build folder; the build compiles it with the target's own files. Types are `public` in a
/// library target and `internal` in others. The generator also reads the schema beside a model
/// (`<Model>.sql`, and the migrations in `<Model>Migrations/`), whose column defaults become
/// default arguments; the target's SQL files are inputs, so changing one regenerates. A mistake
/// in a plist fails the build with the loader's message, naming the file, the type and the key.
@main
struct QSDataModelPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let generator = try context.tool(named: "QSDataModelGenerator")
        // The generate-model-types command names its files and picks the access level the same way.
        let access = target.kind == .generic ? "public" : "internal"
        let sqlFiles = target.sourceFiles(withSuffix: "sql").map(\.url)
        return target.sourceFiles(withSuffix: "plist").map { file in
            let model = file.url
            let output = context.pluginWorkDirectoryURL
                .appending(path: model.deletingPathExtension().lastPathComponent + "+Generated.swift")
            return .buildCommand(
                displayName: "Generating model types from \(model.lastPathComponent)",
                executable: generator.url,
                arguments: [model.path(percentEncoded: false), "--output", output.path(percentEncoded: false), "--access", access],
                inputFiles: [model] + sqlFiles,
                outputFiles: [output])
        }
    }
}
