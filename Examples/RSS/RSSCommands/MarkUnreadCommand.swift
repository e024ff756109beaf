import ArgumentParser

struct MarkUnreadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark-unread", abstract: "Mark articles unread: by ID, a whole feed, everything, or older than a date.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var selection: ArticleSelection

    func run() async throws { try await selection.setRead(false, options: options) }
}
