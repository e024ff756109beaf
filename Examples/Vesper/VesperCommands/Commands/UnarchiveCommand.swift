import ArgumentParser
import VesperCore

struct UnarchiveCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "unarchive",
        abstract: "Bring archived notes back to the timeline.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The notes' IDs.")
    var ids: [Int64] = []

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give at least one note ID.") }
    }

    func run(with vesper: VSDataController, context: CommandContext) async throws -> CommandOutput {
        let notes = try await vesper.notes(ids: ids)
        try vesper.userDidMarkAsUnarchived(notes)
        return CommandOutput(
            text: "Unarchived \(TextFormat.count(notes.count, "note")).",
            json: notes.map { VesperJSON.Note($0, storage: vesper.attachmentStorage) })
    }
}
