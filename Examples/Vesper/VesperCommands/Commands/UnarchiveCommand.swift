import ArgumentParser
import CommandLineTool
import VesperCore

struct UnarchiveCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "unarchive",
        abstract: "Bring archived notes back to the timeline.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup var selection: NoteIDs

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        try await selection.setArchived(false, in: vesper)
    }
}
