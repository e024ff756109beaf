import ArgumentParser
import CommandLineTool
import RSSCore

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List articles, newest first.",
        discussion: "Each line starts with the article's ID, for `rss show`, `rss mark-read` and `rss star`. • marks unread articles, ★ starred ones.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Only unread articles.") var unread = false
    @Flag(help: "Only starred articles.") var starred = false
    @Option(help: ArgumentHelp("Only articles of this feed (URL, title, or part of the URL).", valueName: "feed")) var feed: String?
    @Option(help: "At most this many articles.") var limit: Int?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        try await options.withData { data in
            let feedID = try feed.map { try data.findFeed($0).uniqueID }
            let articles = try await data.articles(ArticleFilter(feedID: feedID, unreadOnly: unread, starredOnly: starred, limit: limit))
            if output.json {
                console.line(try Output.json(articles.map(ArticleSummaryJSON.init)))
                return
            }
            for article in articles {
                let marks = (article.read ? " " : "•") + (article.starred ? "★" : " ")
                let feedName = data.feed(id: article.feedID)?.displayName ?? article.feedID
                console.line("\(article.uniqueID) \(marks) \(Output.date(article.datePublished))  \(feedName) — \(article.title ?? "(untitled)")")
            }
        }
    }
}
