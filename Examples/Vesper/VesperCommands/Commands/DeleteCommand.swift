import ArgumentParser
import CommandLineTool
import VesperCore

struct DeleteCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete notes, with their attachments.",
        discussion: "Each deleted ID is recorded in deletedNotes, in the same transaction, so that sync can tell the server.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup var selection: NoteIDs

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let notes = try await vesper.notes(ids: selection.ids)
        try await vesper.userDidDeleteNotes(notes)
        let deleted = notes.map(\.uniqueID)
        return CommandOutput(text: "Deleted \(TextFormat.count(deleted.count, "note")).", json: VesperJSON.Deleted(deleted: deleted))
    }
}
