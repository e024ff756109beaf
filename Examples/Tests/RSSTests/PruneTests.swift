import ExampleTestSupport
import Foundation
import QSData
import RSSCore
import Testing

/// `rss prune`: deletes articles that left their feed, by the retention rule and its options;
/// the database remembers which articles left.
@MainActor
@Suite struct PruneTests {
    /// Runs `body` with a database whose feed at `feed.xml` held ``RetentionTests/articles``
    /// (dated from now), all read but `old-unread`, `old-starred` starred, and then listed only
    /// `listed-read`: refreshed with `--keep-all`, so every article is still there.
    func withArticlesThatLeft(_ body: (FixtureFeedServer, RSSDataController, URL) async throws -> Void) async throws {
        try await RefreshTests().withServer { server, data, folder in
            let now = Date()
            server.set("feed.xml", .feed(body: RetentionTests.rss(RetentionTests.articles, now: now), etag: "\"v1\"",
                                         lastModified: "Tue, 01 Jul 2025 10:00:00 GMT"))
            try await RefreshTests().subscribe([server.url("feed.xml")], in: data)
            let refresher = FeedRefresher(data: data, retention: nil)
            #expect(await refresher.refresh().articles == StoredArticles(new: 6))
            let stored = try await data.articles(ArticleFilter())
            _ = try data.markRead(stored.filter { $0.title != "old-unread" })
            _ = try data.setStarred(stored.filter { $0.title == "old-starred" }, starred: true)
            server.set("feed.xml", .feed(body: RetentionTests.rss([("listed-read", 60)], now: now), etag: "\"v2\"",
                                         lastModified: "Tue, 02 Jul 2025 10:00:00 GMT"))
            #expect(await refresher.refresh().prunedArticles == 0)
            try await body(server, data, folder)
        }
    }

    /// The titles of the articles left in the database.
    static func titles(in database: URL) async throws -> Set<String> {
        let data = try await RSSDataController.open(at: database)
        let titles = Set(try await data.articles(ArticleFilter()).compactMap(\.title))
        try await data.close()
        return titles
    }

    @Test func aRefreshRecordsWhichArticlesLeftTheFeedAndWhichCameBack() async throws {
        try await withArticlesThatLeft { server, data, _ in
            let left = try await data.store.fetchRows("SELECT title FROM articles WHERE leftFeedAt IS NOT NULL ORDER BY title")
            #expect(left == ["old-read", "old-starred", "old-unread", "recent-read", "undated-read"].map { [.text($0)] })

            server.set("feed.xml", .feed(body: RetentionTests.rss([("listed-read", 60), ("old-unread", 60)], now: Date()),
                                         etag: "\"v3\"", lastModified: "Tue, 03 Jul 2025 10:00:00 GMT"))
            _ = await FeedRefresher(data: data, retention: nil).refresh()
            #expect(try await data.store.count(Article.self, where: "leftFeedAt IS NOT NULL") == 4)
            #expect(try await data.store.count(Article.self, where: "leftFeedAt IS NULL") == 2)
        }
    }

    @Test func pruneDeletesOnlyReadUnstarredOldArticlesThatLeftTheirFeed() async throws {
        try await withArticlesThatLeft { _, data, folder in
            try await data.close()
            let database = folder.appendingPathComponent("rss.sqlite")
            let run = await TestSupport.rss(["prune"], database: database)
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output == "Deleted 1 article that left its feed, read, unstarred, published more than 30 days ago.\n")
            #expect(try await Self.titles(in: database) == ["old-starred", "old-unread", "recent-read", "undated-read", "listed-read"])
        }
    }

    @Test func aDryRunCountsAndDeletesNothing() async throws {
        try await withArticlesThatLeft { _, data, folder in
            try await data.close()
            let database = folder.appendingPathComponent("rss.sqlite")
            let run = await TestSupport.rss(["prune", "--dry-run", "--older-than", "5", "--include-unread"], database: database)
            #expect(run.output == "Would delete 3 articles that left their feeds, read or unread, unstarred, published more than 5 days ago (dry run: nothing deleted).\n")
            #expect(try await Self.titles(in: database).count == 6)
        }
    }

    @Test func includeUnreadAndAShorterAgeWidenTheRuleButNeverReachStarredOrUndatedArticles() async throws {
        try await withArticlesThatLeft { _, data, folder in
            try await data.close()
            let database = folder.appendingPathComponent("rss.sqlite")
            let run = await TestSupport.rss(["prune", "--older-than", "5", "--include-unread"], database: database)
            #expect(run.status == 0, "\(run.error)")
            #expect(try await Self.titles(in: database) == ["old-starred", "undated-read", "listed-read"])
            let reopened = try await RSSDataController.open(at: database)
            #expect(reopened.totalUnreadCount == 0)
            try await reopened.close()
        }
    }

    @Test func pruneWithAFeedLeavesTheOtherFeedsAlone() async throws {
        try await withArticlesThatLeft { server, data, folder in
            server.set("other.xml", .feed(body: RetentionTests.rss([("other-old", 90)], now: Date()), etag: "\"o1\"",
                                          lastModified: "Tue, 01 Jul 2025 10:00:00 GMT"))
            try await RefreshTests().subscribe([server.url("other.xml")], in: data)
            let refresher = FeedRefresher(data: data, retention: nil)
            _ = await refresher.refresh()
            _ = try await data.markAllRead(ArticleFilter(feedID: server.url("other.xml").absoluteString))
            server.set("other.xml", .feed(body: RetentionTests.rss([], now: Date()), etag: "\"o2\"", lastModified: "Tue, 02 Jul 2025 10:00:00 GMT"))
            _ = await refresher.refresh()
            try await data.close()
            let database = folder.appendingPathComponent("rss.sqlite")

            let run = await TestSupport.rss(["prune", "--feed", server.url("other.xml").absoluteString], database: database)
            #expect(run.output == "Deleted 1 article that left its feed, read, unstarred, published more than 30 days ago.\n")
            #expect(try await Self.titles(in: database) == Set(RetentionTests.articles.map(\.guid)))
        }
    }

    @Test func aDatabaseFromBeforeLeftFeedAtOpensWithEveryArticleStillInItsFeed() async throws {
        let folder = try TestFolder(prefix: "rss-upgrade")
        let database = folder.appending("rss.sqlite")
        try UpgradeTests.writeDatabase(at: database, version: 3, rows: """
            INSERT INTO feeds (uniqueID, title) VALUES ('https://example.com/feed', 'Bakery');
            INSERT INTO articles (uniqueID, feedID, title, datePublished, read) VALUES
                ('a1', 'https://example.com/feed', 'Rye', 0, 1);
            """)
        let data = try await RSSDataController.open(at: database)
        #expect(try await data.store.fetchRows("PRAGMA user_version") == [[.integer(UpgradeTests.currentVersion)]])
        #expect(try await data.store.fetchRows("SELECT uniqueID, leftFeedAt FROM articles") == [[.text("a1"), .null]])
        #expect(try await data.pruneArticles(.standard, now: Date()) == 0)
        try await data.close()
    }
}
