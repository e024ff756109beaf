import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-model-types [--target NAME …]`
///
/// For apps that keep the generated Swift in their repository instead of applying the
/// QSDataModelPlugin build plugin (use one or the other, not both): writes
/// `<Model>+Generated.swift` beside the target's other sources for every `.plist` data model of
/// the target, with the same generator and so the same bytes as the build plugin.
@main
struct GenerateModelTypesCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        let generator = try context.tool(named: "QSDataModelGenerator")
        for case let target as SourceModuleTarget in targets {
            // The build plugin names its files and picks the access level the same way.
            let access = target.kind == .generic ? "public" : "internal"
            for file in target.sourceFiles(withSuffix: "plist") {
                let model = file.url
                let output = target.directoryURL
                    .appending(path: model.deletingPathExtension().lastPathComponent + "+Generated.swift")
                try run(generator.url, [model.path(percentEncoded: false), "--output", output.path(percentEncoded: false), "--access", access])
                print("Wrote \(output.path(percentEncoded: false))")
            }
        }
    }

    private func run(_ executable: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GenerationFailed(status: process.terminationStatus)
        }
    }
}

/// The generator reported a mistake (on standard error) and exited with `status`.
struct GenerationFailed: Error, CustomStringConvertible {
    let status: Int32
    var description: String { "QSDataModelGenerator failed (exit status \(status)); its message is above" }
}
