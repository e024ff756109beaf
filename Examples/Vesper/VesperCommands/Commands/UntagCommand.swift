import ArgumentParser
import CommandLineTool
import VesperCore

struct UntagCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "untag",
        abstract: "Remove tags from a note.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup var arguments: NoteAndTagNames

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let note = try await vesper.note(id: arguments.id)
        try vesper.userDidRemoveTags(arguments.names, from: note)
        let tags = note.tags.isEmpty ? "none" : note.tags.map(\.name).joined(separator: ", ")
        return CommandOutput(text: "Note \(arguments.id) tags: \(tags).", json: VesperJSON.Note(note, storage: vesper.attachmentStorage))
    }
}
