import ArgumentParser
import CommandLineTool
import RSSCore

struct StarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "star", abstract: "Star articles.")

    @OptionGroup var options: GlobalOptions
    // Required: the parser refuses `rss star` without at least one ID.
    @Argument(help: ArgumentHelp("Article IDs, as `rss list` prints them.", valueName: "id")) var ids: [String]

    func run() async throws { try await setStarred(true, ids: ids, options: options) }
}

/// Stars or unstars articles by ID and says how many changed; shared by `star` and `unstar`.
@MainActor
func setStarred(_ starred: Bool, ids: [String], options: GlobalOptions) async throws {
    let console = Console.current
    let changed = try await options.withData { data in try await data.setStarred(ids: ids, starred: starred) }
    console.line("\(starred ? "Starred" : "Unstarred") \(Output.plural(changed, "article")).")
}
