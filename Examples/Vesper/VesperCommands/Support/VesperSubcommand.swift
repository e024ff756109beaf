import ArgumentParser
import Foundation
import VesperCore
import VesperSync

/// What a command may use besides its arguments.
struct CommandContext {
    /// Reads all of standard input (nil when empty). Tests pass their own.
    var readStandardInput: () -> String?
}

/// A `vesper` subcommand: runs on the main actor and returns what it prints.
protocol VesperSubcommand: ParsableCommand {
    @MainActor func execute(_ context: CommandContext) async throws -> String
}

/// A subcommand that works on the notes database named by the global options.
protocol DatabaseCommand: VesperSubcommand {
    var options: GlobalOptions { get }
    @MainActor func run(with vesper: VSDataController, context: CommandContext) async throws -> CommandOutput
}

extension DatabaseCommand {
    /// Opens the database, runs the command, waits for its writes and closes the database.
    @MainActor func execute(_ context: CommandContext) async throws -> String {
        let vesper = try await options.openDataController()
        let output: CommandOutput
        do {
            output = try await run(with: vesper, context: context)
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
