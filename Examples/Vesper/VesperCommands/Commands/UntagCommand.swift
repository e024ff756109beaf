import ArgumentParser
import VesperCore

struct UntagCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "untag",
        abstract: "Remove tags from a note.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The note's ID.")
    var id: Int64

    @Argument(help: "The tag names.")
    var names: [String] = []

    func validate() throws {
        if names.isEmpty { throw ValidationError("Give at least one tag name.") }
    }

    func run(with vesper: VSDataController, context: CommandContext) async throws -> CommandOutput {
        let note = try await vesper.note(id: id)
        try vesper.userDidRemoveTags(names, from: note)
        let tags = note.tags.isEmpty ? "none" : note.tags.map(\.name).joined(separator: ", ")
        return CommandOutput(text: "Note \(id) tags: \(tags).", json: VesperJSON.Note(note, storage: vesper.attachmentStorage))
    }
}
