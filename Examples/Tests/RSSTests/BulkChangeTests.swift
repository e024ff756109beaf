import Foundation
import QSData
import RSSCore
import Testing

@MainActor
@Suite struct BulkChangeTests {
    @Test func markingTenThousandReadRunsOneStatementAndEveryCachedObjectAndCountReflectsIt() async throws {
        try await TestSupport.withData { (data, _) async throws in
            try await Bulk.store(Bulk.articles(12_000), in: data)
            let timeline = try await data.articles()
            #expect(timeline.count == 12_000)
            #expect(data.totalUnreadCount == 12_000)

            let doomed = Array(timeline.prefix(10_000))
            var expectedCounts: [String: Int] = [:]
            for article in timeline.dropFirst(10_000) { expectedCounts[article.feedID, default: 0] += 1 }
            let log = try await data.store.recordStatements {
                try data.markRead(doomed)
            }
            #expect(log.count == 1, "\(log)")
            #expect(log.statements.first?.hasPrefix("UPDATE \"articles\" SET \"read\"") == true)
            // Every cached list object reflects it, and the counts, without fetching anything.
            let cached = try data.store.cachedObjects(of: ArticleSummary.self)
            #expect(cached.count == 12_000)
            #expect(cached.filter(\.read).count == 10_000)
            #expect(doomed.allSatisfy { $0.read })
            #expect(data.totalUnreadCount == 2_000)
            for feed in Set(timeline.map(\.feedID)) {
                #expect(data.unreadCount(ofFeed: feed) == expectedCounts[feed, default: 0])
            }
            // …and they agree with the database.
            #expect(try await data.store.count(ArticleSummary.self, where: "read = 0") == 2_000)
            let fetchedAgain = try await data.articles(ArticleFilter(unreadOnly: true))
            #expect(fetchedAgain.count == 2_000)
        }
    }

    @Test func markingReadByConditionIsOneUpdateAndPatchesLiveObjects() async throws {
        try await TestSupport.withData { (data, _) async throws in
            try await Bulk.store(Bulk.articles(1_000, feeds: 4), in: data)
            let timeline = try await data.articles()
            let feedID = "https://feed1.example.com/"
            var updates = 0
            let log = try await data.store.recordStatements {
                updates = try await data.markAllRead(ArticleFilter(feedID: feedID))
            }
            #expect(updates == 250)
            #expect(log.statements.filter { $0.hasPrefix("UPDATE") }.count == 1)
            #expect(timeline.filter { $0.feedID == feedID }.allSatisfy { $0.read })
            #expect(timeline.filter { $0.feedID != feedID }.allSatisfy { !$0.read })
            #expect(data.unreadCount(ofFeed: feedID) == 0)
            #expect(data.totalUnreadCount == 750)
        }
    }

    @Test func deletingTenThousandArticlesWithAuthorsRunsOnePlusOneStatementPerRelationship() async throws {
        try await TestSupport.withData { (data, _) async throws in
            try await Bulk.store(Bulk.articles(12_000), in: data)
            let timeline = try await data.articles()
            try data.markRead(Array(timeline.suffix(1_000)))
            let doomed = Array(timeline.prefix(10_000))

            var deleted: Set<String> = []
            let observation = data.store.observeChanges { deleted.formUnion($0.deletedIDs(of: ArticleSummary.self)) }
            let log = try await data.store.recordStatements {
                try data.delete(doomed)
            }
            let relationships = try #require(data.store.model["Article"]).relationships.count
            #expect(relationships == 1)
            #expect(log.count == 1 + relationships, "\(log)")
            #expect(deleted.count == 10_000)
            #expect(try data.store.cachedObjectCount(of: ArticleSummary.self) == 2_000)
            #expect(data.totalUnreadCount == 1_000)
            #expect(try await data.store.count(Article.self) == 2_000)
            let lookups = try await data.store.fetchRows("SELECT count(*) FROM authorsArticlesLookup")
            #expect(lookups == [[.integer(4_000)]])
            #expect(try await data.store.count(ArticleSummary.self, where: "read = 0") == data.totalUnreadCount)
            // Authors are shared, so none is orphaned yet.
            #expect(try await data.deleteOrphanedAuthors() == 0)
            observation.cancel()
        }
    }

    @Test func deletingAFeedDeletesItsArticlesAndCount() async throws {
        try await TestSupport.withData { (data, _) async throws in
            try await Bulk.store(Bulk.articles(100, feeds: 2), in: data)
            let feed = try #require(data.feed(id: "https://feed0.example.com/"))
            #expect(try await data.deleteFeed(feed) == 50)
            #expect(data.feeds.map(\.uniqueID) == ["https://feed1.example.com/"])
            #expect(data.totalUnreadCount == 50)
            #expect(try await data.store.count(Article.self) == 50)
        }
    }

    @Test func deletingOldReadArticlesKeepsUnreadAndStarredOnes() async throws {
        try await TestSupport.withData { (data, _) async throws in
            try await Bulk.store(Bulk.articles(10, feeds: 1), in: data)
            let all = try await data.articles()
            try data.markRead(Array(all.prefix(6)))
            try data.setStarred([all[0]], starred: true)
            let now = Date(timeIntervalSince1970: 1_700_000_000 + 10 * 86_400)
            #expect(try await data.deleteReadArticles(olderThanDays: 5, now: now) == 5)
            #expect(try await data.store.count(Article.self) == 5)
            #expect(try await data.deleteReadArticles(olderThanDays: 30, now: now) == 0)
        }
    }
}
