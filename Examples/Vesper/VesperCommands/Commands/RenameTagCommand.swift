import ArgumentParser
import CommandLineTool
import VesperCore

struct RenameTagCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename-tag",
        abstract: "Change the case of a tag's name, on every note that has it.",
        discussion: """
            Only the case may change ("ice cream" to "Ice Cream"): a tag is identified by its \
            lower-cased name, so any other change would make a different tag.
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The tag's current name.")
    var oldName: String

    @Argument(help: "The new name, differing only in case.")
    var newName: String

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let tag = try vesper.userDidRenameTag(oldName, to: newName)
        let count = try await vesper.tagsWithNoteCounts().first { $0.tag === tag }?.noteCount ?? 0
        return CommandOutput(
            text: "Renamed the tag to \"\(tag.name)\" on \(TextFormat.count(count, "note")).",
            json: VesperJSON.Tag(tag, noteCount: count))
    }
}
