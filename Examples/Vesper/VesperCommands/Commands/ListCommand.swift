import ArgumentParser
import CommandLineTool
import VesperCore

struct ListCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the timeline, newest first.",
        discussion: "Reads the light timeline notes, not the full ones. Archived notes are hidden unless --archived is given.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Include archived notes.")
    var archived = false

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let notes = try await vesper.timeline(includeArchived: archived)
        return CommandOutput(
            text: TextFormat.timeline(notes, empty: "No notes."),
            json: notes.map(VesperJSON.TimelineNote.init))
    }
}
