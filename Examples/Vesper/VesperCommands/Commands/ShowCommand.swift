import ArgumentParser
import CommandLineTool
import VesperCore

struct ShowCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a note in full: text, dates, tags, attachments, links.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The note's ID.")
    var id: Int64

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let note = try await vesper.note(id: id)
        return CommandOutput(
            text: TextFormat.note(note, storage: vesper.attachmentStorage),
            json: VesperJSON.Note(note, storage: vesper.attachmentStorage))
    }
}
