import ArgumentParser
import VesperCore

struct UnarchiveCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "unarchive",
        abstract: "Bring archived notes back to the timeline.")

    @OptionGroup var options: GlobalOptions

    @OptionGroup var selection: NoteIDs

    func run(with vesper: VSDataController, context: CommandContext) async throws -> CommandOutput {
        let notes = try await vesper.notes(ids: selection.ids)
        try vesper.userDidMarkAsUnarchived(notes)
        return CommandOutput(
            text: "Unarchived \(TextFormat.count(notes.count, "note")).",
            json: notes.map { VesperJSON.Note($0, storage: vesper.attachmentStorage) })
    }
}
