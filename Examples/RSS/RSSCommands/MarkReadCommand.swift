import ArgumentParser

struct MarkReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark-read", abstract: "Mark articles read: by ID, a whole feed, everything, or older than a date.",
        discussion: "However many articles, this is one SQL UPDATE.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var selection: ArticleSelection

    func run() async throws { try await selection.setRead(true, options: options) }
}
