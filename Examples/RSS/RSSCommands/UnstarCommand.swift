import ArgumentParser

struct UnstarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unstar", abstract: "Unstar articles.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("Article IDs, as `rss list` prints them.", valueName: "id")) var ids: [String]

    func run() async throws { try await setStarred(false, ids: ids, options: options) }
}
