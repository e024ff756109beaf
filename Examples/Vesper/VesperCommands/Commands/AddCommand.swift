import ArgumentParser
import CommandLineTool
import VesperCore

struct AddCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a note.",
        discussion: "The text comes from the argument, or from standard input when there is none.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The note's text (read from standard input when omitted).")
    var text: String?

    @Option(name: .long, help: "A tag for the note; repeat for more, in order.")
    var tag: [String] = []

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        var text = self.text ?? Console.current.readStandardInput() ?? ""
        while text.hasSuffix("\n") { text.removeLast() }
        let note = try await vesper.userDidCreateNote(text: text, tagNames: tag)
        let tags = note.tags.isEmpty ? "" : " tagged " + note.tags.map(\.name).joined(separator: ", ")
        return CommandOutput(
            text: "Added note \(note.uniqueID)\(tags).",
            json: VesperJSON.Note(note, storage: vesper.attachmentStorage))
    }
}
