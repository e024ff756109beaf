import ArgumentParser
import CommandLineTool
import VesperCore

struct ArchiveCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Archive notes: they leave the timeline but are kept.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup var selection: NoteIDs

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        try await selection.setArchived(true, in: vesper)
    }
}
