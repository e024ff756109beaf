import Foundation
import QSData
import QSDataModelCodeGen

// Reads a data model with QSData's own loader (and its schema, for the columns' defaults) and
// writes the Swift of its generated types.
// Run by the QSDataModelPlugin build plugin and the generate-model-types command; a mistake in
// the model is printed as the loader reports it, as a compiler-style error on the plist.

/// Prints `message` to standard error as a diagnostic on `file` and exits with failure.
func fail(_ message: String, file: String? = nil) -> Never {
    let line = (file.map { "\($0): " } ?? "") + "error: " + message + "\n"
    FileHandle.standardError.write(Data(line.utf8))
    exit(1)
}

let commandLine: GeneratorCommandLine
do {
    commandLine = try GeneratorCommandLine(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.message + "\n" + GeneratorCommandLine.usage)
}

let modelURL = URL(fileURLWithPath: commandLine.modelPath)
let model: GeneratedModel
do {
    model = try GeneratedModel(contentsOf: modelURL)
} catch {
    fail(String(describing: error), file: modelURL.path)
}

// The schema's column defaults, when the model comes with its schema.
var defaults = ColumnDefaults.none
if let schemaPath = commandLine.schemaPath {
    do {
        let schema = try QSSchema(
            creationFile: URL(fileURLWithPath: schemaPath),
            migrationsFolder: commandLine.migrationsPath.map { URL(fileURLWithPath: $0, isDirectory: true) })
        let tables = Set(model.model.objectTypes.values.filter(\.isGenerated).map(\.table))
        defaults = try ColumnDefaults(schema: schema, tables: tables)
    } catch {
        fail(String(describing: error), file: schemaPath)
    }
}

let source = ModelTypesGenerator(
    model: model, modelFileName: modelURL.lastPathComponent, access: commandLine.access, defaults: defaults
).source()
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: commandLine.outputPath), options: .atomic)
} catch {
    fail("can't write \(commandLine.outputPath): \(error.localizedDescription)")
}
