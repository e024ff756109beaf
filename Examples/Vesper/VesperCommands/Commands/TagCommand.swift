import ArgumentParser
import VesperCore

struct TagCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add tags to a note, after the ones it has.",
        discussion: "Tag names ignore case and spacing: \"Ice Cream\" and \"ice  cream\" are one tag.")

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
        try vesper.userDidAddTags(names, to: note)
        return CommandOutput(
            text: "Note \(id) tags: \(note.tags.map(\.name).joined(separator: ", ")).",
            json: VesperJSON.Note(note, storage: vesper.attachmentStorage))
    }
}
