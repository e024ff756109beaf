import ArgumentParser
import CommandLineTool
import Foundation
import VesperCore
import VesperSync

/// A `vesper` subcommand that works on the notes database named by the global options: it opens
/// the database, does its work on the main actor, waits for its writes, closes the database and
/// prints what it returns, as text or, with `--json`, as JSON.
protocol DatabaseCommand: AsyncParsableCommand, Sendable {
    var options: GlobalOptions { get }
    @MainActor func run(with vesper: VSDataController) async throws -> CommandOutput
}

extension DatabaseCommand {
    func run() async throws {
        let text = try await openRunAndClose()
        Console.current.writeOutput(text)
    }

    @MainActor private func openRunAndClose() async throws -> String {
        let vesper = try await options.openDataController()
        let output: CommandOutput
        do {
            output = try await run(with: vesper)
            try await vesper.close()
        } catch {
            try? await vesper.close()
            throw error
        }
        return try output.rendered(asJSON: options.json)
    }
}

/// The options every database command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The notes database file; its folder must exist.",
        discussion: "Default: $XDG_DATA_HOME/vesper/vesper.sqlite, else ~/.local/share/vesper/vesper.sqlite (created on first use).",
        valueName: "path"))
    var database: String?

    @Flag(name: .long, help: "Print JSON instead of text, for scripts.")
    var json = false

    @MainActor func openDataController() async throws -> VSDataController {
        let vesper = if let database {
            try await VSDataController.open(at: URL(fileURLWithPath: database))
        } else {
            try await VSDataController.open(at: VSDataController.defaultDatabaseURL(), createFolder: true)
        }
        // With a sync account whose server clock differs, edits are stamped with the server's time.
        if let skew = try? VSAccountFile(databaseURL: vesper.store.url).load()?.clockSkew, skew != 0 {
            let correction = VSClockSkew(seconds: skew)
            vesper.now = { VSSyncDate.truncated(correction.correctedNow(Date())) }
        }
        return vesper
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
        return try VesperJSON.string(json)
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
