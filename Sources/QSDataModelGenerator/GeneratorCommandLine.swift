import Foundation
import QSDataModelCodeGen

/// The generator's arguments: `MODEL.plist --output FILE.swift [--access public|package|internal]
/// [--schema SCHEMA.sql [--migrations FOLDER]]`.
struct GeneratorCommandLine {
    static let usage = """
        usage: QSDataModelGenerator MODEL.plist --output FILE.swift [--access public|package|internal] \
        [--schema SCHEMA.sql [--migrations FOLDER]]
        """

    var modelPath: String
    var outputPath: String
    var access: AccessLevel
    /// The creation SQL, whose columns' `DEFAULT`s become default arguments: `--schema`, or
    /// else `<Model>.sql` beside the model when there is one; nil for none.
    var schemaPath: String?
    /// The folder of numbered migrations run after the creation SQL: `--migrations`, or else
    /// `<Model>Migrations` beside the model when the schema was found there too; nil for none.
    var migrationsPath: String?

    /// Reads the arguments after the program's name; throws a message for a person.
    init(arguments: [String]) throws(UsageError) {
        var modelPath: String?
        var outputPath: String?
        var access = AccessLevel.internal
        var schemaPath: String?
        var migrationsPath: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--output":
                guard let value = remaining.popFirst() else { throw UsageError("--output needs a file path") }
                outputPath = value
            case "--access":
                guard let value = remaining.popFirst(), let level = AccessLevel(rawValue: value) else {
                    throw UsageError("--access needs one of: public, package, internal")
                }
                access = level
            case "--schema":
                guard let value = remaining.popFirst() else { throw UsageError("--schema needs an SQL file path") }
                schemaPath = value
            case "--migrations":
                guard let value = remaining.popFirst() else { throw UsageError("--migrations needs a folder path") }
                migrationsPath = value
            case let path where !path.hasPrefix("-") && modelPath == nil:
                modelPath = path
            default:
                throw UsageError("unexpected argument '\(argument)'")
            }
        }
        guard let modelPath, let outputPath else { throw UsageError("a model file and --output are required") }
        if migrationsPath != nil && schemaPath == nil { throw UsageError("--migrations needs --schema") }
        self.modelPath = modelPath
        self.outputPath = outputPath
        self.access = access
        if schemaPath == nil {
            (self.schemaPath, self.migrationsPath) = Self.schemaBeside(modelPath)
        } else {
            self.schemaPath = schemaPath
            self.migrationsPath = migrationsPath
        }
    }
}

extension GeneratorCommandLine {
    /// `Notes.sql` and the folder `NotesMigrations` beside `Notes.plist`, where they exist.
    static func schemaBeside(_ modelPath: String) -> (schema: String?, migrations: String?) {
        let model = URL(fileURLWithPath: modelPath)
        let base = model.deletingPathExtension()
        let schema = base.appendingPathExtension("sql")
        guard FileManager.default.fileExists(atPath: schema.path) else { return (nil, nil) }
        let migrations = base.deletingLastPathComponent().appendingPathComponent(base.lastPathComponent + "Migrations")
        var isFolder: ObjCBool = false
        let hasMigrations = FileManager.default.fileExists(atPath: migrations.path, isDirectory: &isFolder) && isFolder.boolValue
        return (schema.path, hasMigrations ? migrations.path : nil)
    }
}

/// A mistake in the generator's arguments.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
