import ArgumentParser
import CommandLineTool
import VesperCore

struct TagsCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List the tags with the number of notes that have each.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let tags = try await vesper.tagsWithNoteCounts()
        let width = tags.map(\.tag.name.count).max() ?? 0
        let text = tags.isEmpty ? "No tags." : tags.map { tag, count in
            tag.name + String(repeating: " ", count: width - tag.name.count) + "  " + TextFormat.count(count, "note")
        }.joined(separator: "\n")
        return CommandOutput(text: text, json: tags.map { VesperJSON.Tag($0.tag, noteCount: $0.noteCount) })
    }
}
