import ArgumentParser
import CommandLineTool
import RSSCore

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find articles by the words in their title, summary or content, best match first.",
        discussion: """
            Full-text search: every word must occur, case doesn't matter, and the last word also finds \
            longer words it begins ("quant" finds "quantum"). Any text is safe to type. Each result \
            shows the passage that matched, with the matched words in [brackets].
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The words to look for.") var text: String
    @Flag(help: "Only unread articles.") var unread = false
    @Option(help: ArgumentHelp("Only articles of this feed (URL, title, or part of the URL).", valueName: "feed")) var feed: String?
    @Option(help: "At most this many articles.") var limit: Int = 20

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let console = Console.current
        try await options.withData { data in
            let feedID = try feed.map { try data.findFeed($0).uniqueID }
            let results = try await data.search(text, filter: ArticleFilter(feedID: feedID, unreadOnly: unread, limit: limit))
            if output.json {
                console.line(try Output.json(results.map(SearchResultJSON.init)))
                return
            }
            if results.isEmpty { console.line("No articles match \"\(text)\".") }
            for result in results {
                let article = result.article
                let marks = (article.read ? " " : "•") + (article.starred ? "★" : " ")
                let feedName = data.feed(id: article.feedID)?.displayName ?? article.feedID
                console.line("\(article.uniqueID) \(marks) \(Output.date(article.datePublished))  \(feedName) — \(article.title ?? "(untitled)")")
                console.line("    \(result.plainSnippet)")
            }
        }
    }
}

/// The JSON form of a search result in `rss search --json`.
struct SearchResultJSON: Codable, Equatable {
    var article: ArticleSummaryJSON
    /// The matching passage as readable text, matched words in [brackets].
    var snippet: String

    @MainActor init(_ result: RSSSearchResult) {
        article = ArticleSummaryJSON(result.article)
        snippet = result.plainSnippet
    }
}
