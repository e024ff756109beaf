import ArgumentParser
import CommandLineTool
import VesperCore

/// A `vesper` subcommand that works on the notes database: it takes the shared `--database` and
/// `--json` options, does its work on the main actor with the database opened and closed by
/// ``DatabaseOptions/withData(_:)``, and prints what it returns, as text or, with `--json`, as JSON.
protocol DatabaseCommand: AsyncParsableCommand, Sendable {
    var options: GlobalOptions { get }
    var output: OutputOptions { get }
    @MainActor func run(with vesper: VSDataController) async throws -> CommandOutput
}

extension DatabaseCommand {
    func run() async throws {
        let text = try await openRunAndClose()
        Console.current.writeOutput(text)
    }

    @MainActor private func openRunAndClose() async throws -> String {
        let result = try await options.withData { vesper in try await run(with: vesper) }
        return try result.rendered(asJSON: output.json)
    }
}

/// What a command prints: text for people and, for --json, a value to encode.
struct CommandOutput {
    var text: String
    var json: (any Encodable)?

    init(text: String, json: (any Encodable)? = nil) {
        self.text = text
        self.json = json
    }

    func rendered(asJSON: Bool) throws -> String {
        guard asJSON, let json else { return text.hasSuffix("\n") || text.isEmpty ? text : text + "\n" }
        return try JSONOutput.string(json) + "\n"
    }
}

/// The note IDs a command acts on: at least one.
struct NoteIDs: ParsableArguments {
    @Argument(help: "The notes' IDs.")
    var ids: [Int64] = []

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give at least one note ID.") }
    }
}

/// One note and the tag names a command adds or removes: at least one.
struct NoteAndTagNames: ParsableArguments {
    @Argument(help: "The note's ID.")
    var id: Int64

    @Argument(help: "The tag names.")
    var names: [String] = []

    func validate() throws {
        if names.isEmpty { throw ValidationError("Give at least one tag name.") }
    }
}
