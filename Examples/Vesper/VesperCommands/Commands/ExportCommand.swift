import ArgumentParser
import CommandLineTool
import VesperCore

struct ExportCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every note, with its tags and attachments, as JSON.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let notes = try await vesper.allNotes()
        let export = VesperJSON.Export(
            notes: notes.map { VesperJSON.Note($0, storage: vesper.attachmentStorage) },
            tags: try await vesper.tagsWithNoteCounts().map { VesperJSON.Tag($0.tag, noteCount: $0.noteCount) },
            deletedNoteIDs: try await vesper.deletedNoteIDs())
        return CommandOutput(text: try JSONOutput.string(export), json: export)
    }
}
