import ArgumentParser
import VesperCore

struct DeleteCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete notes, with their attachments.",
        discussion: "Each deleted ID is recorded in deletedNotes, in the same transaction, so that sync can tell the server.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The notes' IDs.")
    var ids: [Int64] = []

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give at least one note ID.") }
    }

    func run(with vesper: VSDataController, context: CommandContext) async throws -> CommandOutput {
        let notes = try await vesper.notes(ids: ids)
        try await vesper.userDidDeleteNotes(notes)
        let deleted = notes.map(\.uniqueID)
        return CommandOutput(text: "Deleted \(TextFormat.count(deleted.count, "note")).", json: VesperJSON.Deleted(deleted: deleted))
    }
}
