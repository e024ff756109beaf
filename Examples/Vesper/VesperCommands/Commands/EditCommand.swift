import ArgumentParser
import CommandLineTool
import VesperCore

struct EditCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Replace a note's text.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The note's ID.")
    var id: Int64

    @Argument(help: "The new text.")
    var text: String

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let note = try await vesper.note(id: id)
        try vesper.userDidUpdateText(text, of: note)
        return CommandOutput(text: "Updated note \(id).", json: VesperJSON.Note(note, storage: vesper.attachmentStorage))
    }
}
