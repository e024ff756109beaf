import Foundation
import QSData
import RSSCore
import Testing

/// On refresh, articles that left their feed are deleted once read, unstarred and older than the
/// retention period; everything else stays.
@MainActor
@Suite struct RetentionTests {
    /// An RSS document of items titled by their guid, dated `daysOld` days before `now` (no
    /// `pubDate` when `nil`).
    static func rss(_ items: [(guid: String, daysOld: Int?)], now: Date) -> String {
        let entries = items.map { item in
            let date = item.daysOld.map { "<pubDate>\(TestClock.httpDate(now.addingTimeInterval(-Double($0) * 86_400)))</pubDate>" } ?? ""
            return "<item><guid isPermaLink=\"false\">\(item.guid)</guid><title>\(item.guid)</title>\(date)</item>"
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Kept</title><link>https://example.com/</link><description>d</description>
            \(entries)
            </channel></rss>
            """
    }

    /// The six kinds of article the rule tells apart, by title.
    static let articles: [(guid: String, daysOld: Int?)] = [
        ("old-read", 60), ("old-starred", 60), ("old-unread", 60), ("recent-read", 10), ("undated-read", nil), ("listed-read", 60),
    ]

    /// Refreshes a feed holding ``articles``; marks all but `old-unread` read and stars
    /// `old-starred`; then the feed lists only `listed-read` and `refresher` runs again. Returns
    /// that refresh's summary and the titles left.
    func refreshAfterArticlesLeft(
        retention: ArticleRetention?, secondDocument: (Date) -> String = { rss([("listed-read", 60)], now: $0) }
    ) async throws -> (RefreshSummary, Set<String>) {
        var outcome = (RefreshSummary(), Set<String>())
        try await RefreshTests().withServer { server, data, _ in
            let clock = TestClock()
            server.set("feed.xml", .feed(body: Self.rss(Self.articles, now: clock.now), etag: "\"v1\"", lastModified: "Tue, 01 Jul 2025 10:00:00 GMT"))
            try await RefreshTests().subscribe([server.url("feed.xml")], in: data)
            let refresher = FeedRefresher(data: data, retention: retention, now: { clock.now })
            #expect(await refresher.refresh().articles == StoredArticles(new: 6))

            let stored = try await data.articles(ArticleFilter())
            _ = try data.markRead(stored.filter { $0.title != "old-unread" })
            _ = try data.setStarred(stored.filter { $0.title == "old-starred" }, starred: true)
            try await data.store.flush()

            server.set("feed.xml", .feed(body: secondDocument(clock.now), etag: "\"v2\"",
                                         lastModified: "Tue, 02 Jul 2025 10:00:00 GMT"))
            clock.advance(seconds: 3600)
            let summary = await refresher.refresh()
            #expect(summary.fetched == 1)
            #expect(summary.failures == [])
            outcome = (summary, Set(try await data.articles(ArticleFilter()).compactMap(\.title)))
        }
        return outcome
    }

    @Test func onlyReadUnstarredArticlesOlderThanThirtyDaysThatLeftTheFeedArePruned() async throws {
        let (summary, left) = try await refreshAfterArticlesLeft(retention: .standard)
        #expect(summary.prunedArticles == 1)
        #expect(left == ["old-starred", "old-unread", "recent-read", "undated-read", "listed-read"])
    }

    @Test func aShorterRetentionAlsoPrunesTheRecentReadArticle() async throws {
        let (summary, left) = try await refreshAfterArticlesLeft(retention: try ArticleRetention(days: 5))
        #expect(summary.prunedArticles == 2)
        #expect(left == ["old-starred", "old-unread", "undated-read", "listed-read"])
    }

    /// A download cut off before its end lists only the items before the cut: the others have
    /// not left the feed, and nothing is pruned.
    @Test func aCutOffDocumentPrunesNothing() async throws {
        let (summary, left) = try await refreshAfterArticlesLeft(retention: .standard) { now in
            let whole = Self.rss(Self.articles, now: now)
            guard let cut = whole.range(of: "<item><guid isPermaLink=\"false\">old-starred") else { return whole }
            return String(whole[..<cut.upperBound])
        }
        #expect(summary.repairs.count == 1)
        #expect(summary.prunedArticles == 0)
        #expect(left == Set(Self.articles.map(\.guid)))
    }

    @Test func keepingAllPrunesNothing() async throws {
        let (summary, left) = try await refreshAfterArticlesLeft(retention: nil)
        #expect(summary.prunedArticles == 0)
        #expect(left == Set(Self.articles.map(\.guid)))
    }

    @Test func theRefreshCommandKeepsEverythingWithKeepAll() async throws {
        try await RefreshTests().withServer { server, data, folder in
            server.set("feed.xml", .feed(body: Self.rss([("gone", 400)], now: Date()), etag: "\"v1\"", lastModified: "Tue, 01 Jul 2025 10:00:00 GMT"))
            try await RefreshTests().subscribe([server.url("feed.xml")], in: data)
            try await data.close()
            let database = folder.appendingPathComponent("rss.sqlite")
            #expect(await TestSupport.rss(["refresh"], database: database).status == 0)
            #expect(await TestSupport.rss(["mark-read", "--all"], database: database).status == 0)
            server.set("feed.xml", .feed(body: Self.rss([], now: Date()), etag: "\"v2\"", lastModified: "Tue, 02 Jul 2025 10:00:00 GMT"))

            let kept = await TestSupport.rss(["refresh", "--keep-all", "--json"], database: database)
            let keptSummary = try TestSupport.decode(RefreshSummary.self, from: kept.output)
            #expect(keptSummary.fetched == 1)
            #expect(keptSummary.prunedArticles == 0)

            server.set("feed.xml", .feed(body: Self.rss([], now: Date()), etag: "\"v3\"", lastModified: "Tue, 03 Jul 2025 10:00:00 GMT"))
            let pruned = await TestSupport.rss(["refresh", "--json", "--keep-days", "365"], database: database)
            #expect(try TestSupport.decode(RefreshSummary.self, from: pruned.output).prunedArticles == 1)
        }
    }
}
