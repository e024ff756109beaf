import ArgumentParser
import CommandLineTool
import Foundation
import RSSCore

/// Text and JSON renderings shared by the commands.
enum Output {
    /// What `--json` prints: the JSON every tool prints (``JSONOutput``).
    static func json(_ value: some Encodable) throws -> String {
        try JSONOutput.string(value)
    }

    /// `2024-05-01 14:03` in UTC, or `—` when there is no date.
    static func date(_ date: Date?) -> String {
        guard let date else { return "—" }
        return date.formatted(Date.VerbatimFormatStyle(
            format: "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits)",
            timeZone: .gmt, calendar: Calendar(identifier: .gregorian)))
    }

    /// A number with thousands separators.
    static func count(_ number: Int) -> String {
        number.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }

    /// `3 new, 1 updated, 5 unchanged`, and `, 2 duplicates` when a feed repeated IDs.
    static func describe(_ articles: StoredArticles) -> String {
        "\(count(articles.new)) new, \(count(articles.updated)) updated, \(count(articles.unchanged)) unchanged"
            + (articles.duplicates > 0 ? ", \(plural(articles.duplicates, "duplicate"))" : "")
    }

    /// "1 article", "2 articles".
    static func plural(_ number: Int, _ noun: String) -> String {
        "\(count(number)) \(noun)\(number == 1 ? "" : "s")"
    }

}

/// The JSON form of a feed in `rss feeds --json`.
struct FeedJSON: Codable, Equatable {
    var id: String
    var title: String?
    var homePageURL: String?
    var folder: String?
    /// Where the feed is read from, when a permanent redirect moved it.
    var address: String?
    var unread: Int

    @MainActor init(_ feed: Feed, unread: Int) {
        id = feed.uniqueID
        address = feed.address
        title = feed.title
        homePageURL = feed.homePageURL
        folder = feed.folder
        self.unread = unread
    }
}

/// The JSON form of an article in `rss list --json`.
struct ArticleSummaryJSON: Codable, Equatable {
    var id: String
    var feedID: String
    var title: String?
    var datePublished: Date?
    var read: Bool
    var starred: Bool

    @MainActor init(_ article: ArticleSummary) {
        id = article.uniqueID
        feedID = article.feedID
        title = article.title
        datePublished = article.datePublished
        read = article.read
        starred = article.starred
    }
}

/// The JSON form of an article in `rss show --json`.
struct ArticleJSON: Codable, Equatable {
    var id: String
    var feedID: String
    var title: String?
    var url: String?
    var externalURL: String?
    var contentHTML: String?
    var summary: String?
    var imageURL: String?
    var datePublished: Date?
    var dateModified: Date?
    var read: Bool
    var starred: Bool
    var authors: [String]

    init(_ article: Article) {
        id = article.uniqueID
        feedID = article.feedID
        title = article.title
        url = article.url
        externalURL = article.externalURL
        contentHTML = article.contentHTML
        summary = article.summary
        imageURL = article.imageURL
        datePublished = article.datePublished
        dateModified = article.dateModified
        read = article.read
        starred = article.starred
        authors = article.authors.map(\.displayName)
    }
}

/// A date on the command line: `2024-05-01` (midnight UTC) or full ISO 8601.
struct DateArgument: ExpressibleByArgument {
    let date: Date

    init?(argument: String) {
        if let date = try? Date(argument, strategy: .iso8601) {
            self.date = date
        } else if let date = try? Date(argument + "T00:00:00Z", strategy: .iso8601) {
            self.date = date
        } else {
            return nil
        }
    }
}
