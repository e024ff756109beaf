import ArgumentParser
import CommandLineTool
import VesperCore

struct TagCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add tags to a note, after the ones it has.",
        discussion: "Tag names ignore case and spacing: \"Ice Cream\" and \"ice  cream\" are one tag.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup var arguments: NoteAndTagNames

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let note = try await vesper.note(id: arguments.id)
        try vesper.userDidAddTags(arguments.names, to: note)
        return CommandOutput(
            text: "Note \(arguments.id) tags: \(note.tags.map(\.name).joined(separator: ", ")).",
            json: VesperJSON.Note(note, storage: vesper.attachmentStorage))
    }
}
