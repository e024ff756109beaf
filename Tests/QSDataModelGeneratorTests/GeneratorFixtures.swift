import Foundation
import QSData
import QSDataModelCodeGen
import TestSupport

/// Where the generator tests find their models and golden files, and how they run the generator.
enum GeneratorFixtures {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    /// The model the build plugin also compiles into QSDataGeneratedTypesTests.
    static let libraryModel = testsFolder.appendingPathComponent("QSDataGeneratedTypesTests/Library.plist")
    static let goldenFolder = testsFolder.appendingPathComponent("QSDataModelGeneratorTests/Golden")

    /// The generator's output for the model at `url`, with the defaults of the schema beside it
    /// (`<Model>.sql`) when there is one, as the generator reads them.
    static func generate(_ url: URL, access: AccessLevel = .internal) throws -> String {
        let model = try GeneratedModel(contentsOf: url)
        return ModelTypesGenerator(
            model: model, modelFileName: url.lastPathComponent, access: access, defaults: try defaults(beside: url, for: model.model)
        ).source()
    }

    static func defaults(beside url: URL, for model: QSDataModel) throws -> ColumnDefaults {
        let schema = url.deletingPathExtension().appendingPathExtension("sql")
        guard FileManager.default.fileExists(atPath: schema.path) else { return .none }
        return try ColumnDefaults(schema: QSSchema(creationFile: schema), tables: Set(model.objectTypes.values.map(\.table)))
    }

    /// A model file of one object type, written to a temporary folder as `fileName`.
    static func modelFile(_ objects: String, fileName: String = "Bad.plist") throws -> URL {
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>\(objects)</dict></dict></plist>
        """
        let url = temporaryFolder().appendingPathComponent(fileName)
        try Data(plist.utf8).write(to: url)
        return url
    }

    static func temporaryFolder() -> URL {
        TestRunFolder.newFolder("qsdata-generator")
    }

    /// The generator executable, built beside the test bundle.
    static let generator: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("QSDataModelGenerator") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct GeneratorFailed: Error {
        let problem: String
    }

    struct Run {
        let status: Int32
        let standardError: String
        let output: String?
    }

    /// Runs the generator as the build plugin does and collects what it reports.
    static func runGenerator(_ arguments: [String], output: URL) throws -> Run {
        guard let generator else { throw GeneratorFailed(problem: "the generator executable was not built") }
        let process = try ChildProcess(generator, arguments, standardOutput: .discarded)
        let errorData = process.errors?.readDataToEndOfFile() ?? Data()
        let termination = process.waitUntilEnded()
        guard case .exited(let status) = termination else { throw GeneratorFailed(problem: "the generator ended with \(termination)") }
        return Run(
            status: status,
            standardError: String(decoding: errorData, as: UTF8.self),
            output: try? String(contentsOf: output, encoding: .utf8))
    }
}
