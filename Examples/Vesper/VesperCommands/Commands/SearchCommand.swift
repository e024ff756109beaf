import ArgumentParser
import CommandLineTool
import VesperCore

struct SearchCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "List the notes that have every word of TEXT, best match first, archived ones included.",
        discussion: """
            Full-text search: case doesn't matter, the last word also finds longer words it begins \
            ("pist" finds "pistachio"), and any text is safe to type. Each line shows the passage \
            that matched, with the matched words in [brackets].
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The words to look for.")
    var text: String

    @Option(help: "Show at most this many notes.")
    var limit: Int?

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let results = try await vesper.search(text, limit: limit)
        return CommandOutput(
            text: TextFormat.searchResults(results, empty: "No notes contain \"\(text)\"."),
            json: results.map(VesperJSON.SearchResult.init))
    }
}
