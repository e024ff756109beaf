import ArgumentParser
import VesperCore

struct SearchCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "List the notes whose text contains TEXT (ignoring case), archived ones included.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The text to look for.")
    var text: String

    func run(with vesper: VSDataController, context: CommandContext) async throws -> CommandOutput {
        let notes = try await vesper.search(text)
        return CommandOutput(
            text: TextFormat.timeline(notes, empty: "No notes contain \"\(text)\"."),
            json: notes.map(VesperJSON.TimelineNote.init))
    }
}
