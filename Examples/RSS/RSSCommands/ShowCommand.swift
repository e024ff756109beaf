import ArgumentParser
import CommandLineTool
import RSSCore

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one article in full.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The article's ID, as `rss list` prints it.", valueName: "id")) var id: String

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        try await options.withData { data in
            let article = try await data.article(id: id)
            if output.json {
                console.line(try Output.json(ArticleJSON(article)))
                return
            }
            console.line(article.title ?? "(untitled)")
            console.line("Feed:      \(data.feed(id: article.feedID)?.displayName ?? article.feedID)")
            if !article.authors.isEmpty { console.line("By:        \(article.authors.map(\.displayName).joined(separator: ", "))") }
            console.line("Published: \(Output.date(article.datePublished))")
            if let url = article.url { console.line("Link:      \(url)") }
            console.line("State:     \(article.read ? "read" : "unread")\(article.starred ? ", starred" : "")")
            if let body = article.contentHTML ?? article.summary {
                console.line()
                console.line(HTMLText.plainText(fromHTML: body))
            }
        }
    }
}
