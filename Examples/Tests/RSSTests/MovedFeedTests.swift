import ExampleTestSupport
import Foundation
import QSData
import RSSCore
import Testing

/// A feed that moved (a permanent redirect) stays one subscription, whichever of its addresses
/// is imported, and `rss import URL` leaves the first refresh a conditional GET.
@MainActor
@Suite struct MovedFeedTests {
    @Test func importingTheNewOrTheOldAddressOfAMovedFeedFindsTheSubscription() async throws {
        try await RefreshTests().withServer { server, data, _ in
            server.set("old.xml", .redirect(status: 301, to: "/new.xml"))
            server.set("new.xml", RefreshTests.route(RefreshTests.items("m", 0..<3)))
            let old = server.url("old.xml").absoluteString
            let new = server.url("new.xml").absoluteString
            try await RefreshTests().subscribe([server.url("old.xml")], in: data)
            let refreshed = await FeedRefresher(data: data).refresh()
            #expect(refreshed.moved == [FeedMove(feed: old, from: old, to: new)])
            #expect(refreshed.articles == StoredArticles(new: 3))
            #expect(data.feed(knownAt: new)?.uniqueID == old)

            let byNewAddress = await FeedImporter(data: data).importFeeds(from: [.remote(server.url("new.xml"))])
            #expect(byNewAddress.failures == [])
            #expect(byNewAddress.feeds == 1)
            #expect(byNewAddress.newArticles == 0)
            #expect(byNewAddress.unchangedArticles == 3)

            let byOldAddress = await FeedImporter(data: data).importFeeds(from: [.remote(server.url("old.xml"))])
            #expect(byOldAddress.feeds == 1)
            #expect(byOldAddress.newArticles == 0)
            #expect(byOldAddress.unchangedArticles == 3)

            #expect(try await data.store.count(Feed.self) == 1)
            #expect(try await data.store.count(Article.self) == 3)
            #expect(try await data.store.count(Article.self, where: "feedID = ?", arguments: [.text(old)]) == 3)
            #expect(data.feed(id: old)?.address == new)
            #expect(try await data.store.fetchIDs(FeedAddress.self) == [new])
            // Refresh: old 301 + new 200; import of new: 200; import of old: 301 + 200.
            #expect(server.requests.map(\.path) == ["/old.xml", "/new.xml", "/new.xml", "/old.xml", "/new.xml"])
        }
    }

    @Test func importingAURLStoresItsValidatorsSoTheFirstRefreshIsANotModifiedAnswer() async throws {
        try await RefreshTests().withServer { server, data, folder in
            try await data.close()
            server.set("feed.xml", RefreshTests.route(RefreshTests.items("v", 0..<4)))
            let database = folder.appendingPathComponent("rss.sqlite")
            let imported = await TestSupport.rss(["import", server.url("feed.xml").absoluteString], database: database)
            #expect(imported.status == 0, "\(imported.error)")
            #expect(server.requests.count == 1)

            let reopened = try await RSSDataController.open(at: database)
            let feed = try #require(reopened.feed(id: server.url("feed.xml").absoluteString))
            #expect(feed.etag == "\"v1\"")
            #expect(feed.lastModified == "Tue, 01 Jul 2025 10:00:00 GMT")
            var summary = RefreshSummary()
            let log = try await reopened.store.recordStatements { summary = await FeedRefresher(data: reopened).refresh() }
            #expect(summary.notModified == 1)
            #expect(summary.fetched == 0)
            #expect(summary.requests == 1)
            #expect(summary.bytes == 0)
            #expect(summary.articles == StoredArticles())
            // Nothing was parsed into the store or written.
            #expect(log.statements.isEmpty, "\(log)")
            #expect(server.requests.count == 2)
            #expect(server.requests.last == FixtureFeedServer.Request(
                path: "/feed.xml", ifNoneMatch: "\"v1\"", ifModifiedSince: "Tue, 01 Jul 2025 10:00:00 GMT",
                acceptEncoding: server.requests.last?.acceptEncoding, status: 304))
            try await reopened.close()
        }
    }

    @Test func aDatabaseFromBeforeFeedAddressesKnowsItsMovedFeedsAtTheirNewAddress() async throws {
        let folder = try TestFolder(prefix: "rss-upgrade")
        let database = folder.appending("rss.sqlite")
        try UpgradeTests.writeDatabase(at: database, version: 2, rows: """
            INSERT INTO feeds (uniqueID, title, address) VALUES
                ('https://example.com/old.xml', 'Moved', 'https://example.org/new.xml'),
                ('https://example.com/stayed.xml', 'Stayed', NULL)
            """)

        let data = try await RSSDataController.open(at: database)
        #expect(try await data.store.fetchRows("SELECT uniqueID, feedID FROM feedAddresses") == [
            [.text("https://example.org/new.xml"), .text("https://example.com/old.xml")],
        ])
        #expect(data.feed(knownAt: "https://example.org/new.xml")?.uniqueID == "https://example.com/old.xml")
        #expect(data.feed(knownAt: "https://example.com/stayed.xml")?.title == "Stayed")
        try await data.close()
    }
}

extension MovedFeedTests {
    @Test func aMoveFoundOnTheWayToANotModifiedAnswerIsRecordedWithoutWritingArticles() async throws {
        try await RefreshTests().withServer { server, data, _ async throws in
            server.set("a.xml", RefreshTests.route(RefreshTests.items("a", 0..<2)))
            let imported = await FeedImporter(data: data).importFeeds(from: [.remote(server.url("a.xml"))])
            #expect(imported.newArticles == 2)
            // The feed moves; the new address serves the same document, with the same validators.
            server.set("a.xml", .redirect(status: 308, to: "/b.xml"))
            server.set("b.xml", RefreshTests.route(RefreshTests.items("a", 0..<2)))

            let summary = await FeedRefresher(data: data).refresh()
            let old = server.url("a.xml").absoluteString
            let new = server.url("b.xml").absoluteString
            #expect(summary.notModified == 1)
            #expect(summary.requests == 2)
            #expect(summary.moved == [FeedMove(feed: old, from: old, to: new)])
            #expect(data.feed(id: old)?.address == new)
            #expect(data.feed(knownAt: new)?.uniqueID == old)
            #expect(server.requests.last?.status == 304)
            #expect(try await data.store.count(Article.self) == 2)
        }
    }
}
