import QSDataModelCodeGen

/// The generator's arguments: `MODEL.plist --output FILE.swift [--access public|package|internal]`.
struct GeneratorCommandLine {
    static let usage = "usage: QSDataModelGenerator MODEL.plist --output FILE.swift [--access public|package|internal]"

    var modelPath: String
    var outputPath: String
    var access: AccessLevel

    /// Reads the arguments after the program's name; throws a message for a person.
    init(arguments: [String]) throws(UsageError) {
        var modelPath: String?
        var outputPath: String?
        var access = AccessLevel.internal
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
            case let path where !path.hasPrefix("-") && modelPath == nil:
                modelPath = path
            default:
                throw UsageError("unexpected argument '\(argument)'")
            }
        }
        guard let modelPath, let outputPath else { throw UsageError("a model file and --output are required") }
        self.modelPath = modelPath
        self.outputPath = outputPath
        self.access = access
    }
}

/// A mistake in the generator's arguments.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
