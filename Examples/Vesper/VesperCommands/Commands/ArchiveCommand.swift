import ArgumentParser
import VesperCore

struct ArchiveCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Archive notes: they leave the timeline but are kept.")

    @OptionGroup var options: GlobalOptions

    @OptionGroup var selection: NoteIDs

    func run(with vesper: VSDataController, context: CommandContext) async throws -> CommandOutput {
        let notes = try await vesper.notes(ids: selection.ids)
        try vesper.userDidMarkAsArchived(notes)
        return CommandOutput(
            text: "Archived \(TextFormat.count(notes.count, "note")).",
            json: notes.map { VesperJSON.Note($0, storage: vesper.attachmentStorage) })
    }
}
