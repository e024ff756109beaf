import Foundation
import QSData

/// Reading articles and statistics.
extension RSSDataController {
    /// The articles the filter selects, newest first, as light list objects.
    public func articles(_ filter: ArticleFilter = ArticleFilter()) async throws -> [ArticleSummary] {
        let condition = filter.condition
        return try await store.fetch(
            ArticleSummary.self, where: condition?.sql ?? "1", arguments: condition?.arguments ?? [],
            orderBy: ArticleFilter.newestFirst, limit: filter.limit)
    }

    /// The articles the filter selects, kept current: fetched again after each burst of changes
    /// that can affect them (a new article, one marked read), patched without SQL when only a
    /// column the list neither filters nor sorts by changes (starring in the unread list).
    public func liveArticles(_ filter: ArticleFilter = ArticleFilter()) async throws -> QSLiveQuery<ArticleSummary> {
        let condition = filter.condition
        return try await store.liveQuery(QSQuery(
            ArticleSummary.self, where: condition?.sql, arguments: condition?.arguments ?? [],
            orderBy: ArticleFilter.newestFirst, limit: filter.limit))
    }

    /// The articles whose title, summary or content has every word of `text` (the last word may
    /// be the start of a word), best match first, each with the passage that matched, its words
    /// in [brackets] (HTML and all: ``RSSSearchResult/plainSnippet`` reads better). Full-text
    /// search (FTS5): any text is safe to pass.
    public func search(_ text: String, filter: ArticleFilter = ArticleFilter()) async throws -> [RSSSearchResult] {
        let condition = filter.condition
        return try await store.search(
            ArticleSummary.self, for: text, where: condition?.sql, arguments: condition?.arguments ?? [],
            limit: filter.limit, snippet: QSSnippetStyle(maxTokens: 16)
        ).map { RSSSearchResult(article: $0.object, snippet: $0.snippet ?? "") }
    }

    /// The SQL a per-feed list runs, for checking its query plan.
    public static let perFeedListSQL = "SELECT uniqueID FROM articles WHERE feedID = ? ORDER BY \(ArticleFilter.newestFirst)"

    /// The full article with its authors.
    public func article(id: String) async throws -> Article {
        guard let article = try await store.fetch(Article.self, id: id) else { throw RSSError.noSuchArticle(id) }
        return article
    }

    /// The list objects for these uniqueIDs, in order; throws naming the first unknown ID.
    public func articleSummaries(ids: [String]) async throws -> [ArticleSummary] {
        let found = try await store.fetch(ArticleSummary.self, ids: ids)
        if found.count != Set(ids).count {
            let known = Set(found.map(\.uniqueID))
            if let missing = ids.first(where: { !known.contains($0) }) { throw RSSError.noSuchArticle(missing) }
        }
        return found
    }

    /// Counts of everything, for `rss stats`.
    public func statistics() async throws -> RSSStatistics {
        let row = try await store.fetchRows("""
            SELECT (SELECT count(*) FROM feeds), (SELECT count(*) FROM articles),
                   (SELECT count(*) FROM articles WHERE read = 0), (SELECT count(*) FROM articles WHERE starred = 1),
                   (SELECT count(*) FROM authors), (SELECT min(datePublished) FROM articles),
                   (SELECT max(datePublished) FROM articles)
            """).first ?? []
        func int(_ index: Int) -> Int {
            guard index < row.count, case .integer(let value) = row[index] else { return 0 }
            return Int(value)
        }
        func date(_ index: Int) -> Date? {
            guard index < row.count else { return nil }
            switch row[index] {
            case .real(let seconds): return Date(timeIntervalSince1970: seconds)
            case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
            default: return nil
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: store.url.path)[.size] as? Int) ?? 0
        return RSSStatistics(
            feeds: int(0), articles: int(1), unread: int(2), starred: int(3), authors: int(4),
            oldestArticle: date(5), newestArticle: date(6), databaseBytes: size)
    }
}

/// What `rss stats` shows.
public struct RSSStatistics: Sendable, Equatable, Codable {
    public var feeds: Int
    public var articles: Int
    public var unread: Int
    public var starred: Int
    public var authors: Int
    public var oldestArticle: Date?
    public var newestArticle: Date?
    public var databaseBytes: Int
}
