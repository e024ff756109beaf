import CommandLineTool
import ExampleTestSupport
import FeedParser
import Foundation
import QSData
import RSSCommands
import RSSCore
import Synchronization
import Testing

/// `rss refresh` against a loopback server that serves fixture feeds.
@MainActor
@Suite struct RefreshTests {
    /// Validators the fixture server sends for version `n` of a feed.
    static func route(_ items: [TestSupport.Item], version: Int = 1) -> FixtureFeedServer.Route {
        .feed(body: TestSupport.rss(items: items), etag: "\"v\(version)\"",
              lastModified: "Tue, 0\(version) Jul 2025 10:00:00 GMT")
    }

    /// Items `first..<first+count`, with IDs distinct from other feeds' by `prefix`.
    static func items(_ prefix: String, _ range: Range<Int>) -> [TestSupport.Item] {
        range.map { TestSupport.Item(guid: "\(prefix)-\($0)", title: "\(prefix) \($0)", day: 1 + $0 % 28) }
    }

    /// Runs `body` with a started fixture server and a new database, and shuts the server down.
    func withServer(_ body: (FixtureFeedServer, RSSDataController, URL) async throws -> Void) async throws {
        let server = try await FixtureFeedServer.start()
        do {
            try await TestSupport.withData { (data, folder) async throws in
                try await body(server, data, folder)
            }
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    /// Subscribes to `urls` without fetching, as `rss import --no-fetch` does.
    func subscribe(_ urls: [URL], in data: RSSDataController) async throws {
        let importer = FeedImporter(data: data)
        importer.fetchesRemoteFeeds = false
        let summary = await importer.importFeeds(from: urls.map { FeedLocation.remote($0) })
        #expect(summary.subscribedFeeds == urls.count)
        #expect(summary.feeds == 0)
        try await data.store.flush()
    }

    @Test func aSecondRefreshOfUnchangedFeedsParsesAndWritesNothing() async throws {
        try await withServer { server, data, _ in
            for index in 0..<3 { server.set("feed\(index).xml", Self.route(Self.items("f\(index)", 0..<4))) }
            try await subscribe((0..<3).map { server.url("feed\($0).xml") }, in: data)
            #expect(server.requests.isEmpty)

            let refresher = FeedRefresher(data: data)
            let first = await refresher.refresh()
            #expect(first.feeds == 3)
            #expect(first.fetched == 3)
            #expect(first.notModified == 0)
            #expect(first.articles == StoredArticles(new: 12))
            #expect(first.requests == 3)
            #expect(first.failures.isEmpty)
            #expect(data.totalUnreadCount == 12)
            let feed = try #require(data.feed(id: server.url("feed0.xml").absoluteString))
            #expect(feed.etag == "\"v1\"")
            #expect(feed.lastModified == "Tue, 01 Jul 2025 10:00:00 GMT")

            let changesBefore = try await TestSupport.totalChanges(data.store)
            var second = RefreshSummary()
            let log = try await data.store.recordStatements { second = await refresher.refresh() }
            #expect(second.notModified == 3)
            #expect(second.fetched == 0)
            #expect(second.articles == StoredArticles())
            #expect(second.requests == 3)
            #expect(second.bytes == 0)
            // 304s: no statement ran at all, so nothing was parsed into the store or written.
            #expect(log.statements.isEmpty, "\(log)")
            #expect(try await TestSupport.totalChanges(data.store) == changesBefore)
            let conditional = server.requests.suffix(3)
            #expect(conditional.allSatisfy { $0.ifNoneMatch == "\"v1\"" && $0.ifModifiedSince == "Tue, 01 Jul 2025 10:00:00 GMT" && $0.status == 304 })
            // Every feed is on one host: never more than two at once.
            #expect(server.mostRequestsAtOnce <= 2)
        }
    }

    @Test func aChangedFeedAddsOnlyItsNewArticlesAndKeepsReadAndStarred() async throws {
        try await withServer { server, data, _ in
            server.set("a.xml", Self.route(Self.items("a", 0..<5)))
            server.set("b.xml", Self.route(Self.items("b", 0..<2)))
            try await subscribe([server.url("a.xml"), server.url("b.xml")], in: data)
            let refresher = FeedRefresher(data: data)
            #expect(await refresher.refresh().articles.new == 7)

            let feedA = server.url("a.xml").absoluteString
            let read = try await data.articles(ArticleFilter(feedID: feedA))
            _ = try data.markRead(Array(read.prefix(2)))
            _ = try data.setStarred(Array(read.prefix(1)), starred: true)
            try await data.store.flush()

            server.set("a.xml", Self.route(Self.items("a", 0..<7), version: 2))
            let second = await refresher.refresh()
            #expect(second.fetched == 1)
            #expect(second.notModified == 1)
            #expect(second.articles == StoredArticles(new: 2, unchanged: 5))
            #expect(try await data.store.count(Article.self, where: "feedID = ?", arguments: [.text(feedA)]) == 7)
            #expect(try await data.store.count(Article.self, where: "read = 1") == 2)
            #expect(try await data.store.count(Article.self, where: "starred = 1") == 1)
            #expect(data.unreadCount(ofFeed: feedA) == 5)
            #expect(data.feed(id: feedA)?.etag == "\"v2\"")
        }
    }

    @Test func aPermanentRedirectMovesTheSubscriptionAndATemporaryOneDoesNot() async throws {
        try await withServer { server, data, _ in
            server.set("old.xml", .redirect(status: 301, to: "/new.xml"))
            server.set("new.xml", Self.route(Self.items("n", 0..<3)))
            server.set("elsewhere.xml", .redirect(status: 302, to: server.url("mirror.xml").absoluteString))
            server.set("mirror.xml", Self.route(Self.items("m", 0..<2)))
            let old = server.url("old.xml")
            try await subscribe([old, server.url("elsewhere.xml")], in: data)
            let refresher = FeedRefresher(data: data)

            let first = await refresher.refresh()
            #expect(first.fetched == 2)
            #expect(first.moved == [FeedMove(feed: old.absoluteString, from: old.absoluteString, to: server.url("new.xml").absoluteString)])
            #expect(first.requests == 4)
            let moved = try #require(data.feed(id: old.absoluteString))
            #expect(moved.address == server.url("new.xml").absoluteString)
            #expect(data.feed(id: server.url("elsewhere.xml").absoluteString)?.address == nil)
            // The articles stay with the subscription, under their first IDs.
            #expect(try await data.store.count(Article.self, where: "feedID = ?", arguments: [.text(old.absoluteString)]) == 3)

            let second = await refresher.refresh()
            #expect(second.notModified == 2)
            #expect(second.moved.isEmpty)
            #expect(server.requests.filter { $0.path == "/old.xml" }.count == 1)
            #expect(server.requests.filter { $0.path == "/new.xml" }.count == 2)
            #expect(server.requests.filter { $0.path == "/elsewhere.xml" }.count == 2)
            #expect(try await data.store.count(Article.self) == 5)
        }
    }

    @Test func aServerThatNeverAnswersTimesOutAndA500FailsWhileTheOthersSucceed() async throws {
        let silent = try LoopbackSocket(listening: true)
        try await withServer { server, data, _ in
            server.set("good.xml", Self.route(Self.items("g", 0..<3)))
            server.set("broken.xml", .status(500))
            let hanging = silent.url("feed.xml")
            try await subscribe([server.url("good.xml"), server.url("broken.xml"), hanging], in: data)
            // The fetch timers expire when the test says: once the good and the broken feed are
            // done, so the only fetch still running is the silent server's, however busy the
            // machine is. (The nominal limit is long, so the HTTP client's own backstop never
            // cuts off the answering server either.)
            let timers = ManualTimers()
            let refresher = FeedRefresher(data: data, fetcher: FeedFetcher(timeout: .seconds(60), sleep: timers.sleep))
            var answered = 0
            refresher.onEvent = { event in
                switch event {
                case .fetched, .failed:
                    answered += 1
                    if answered == 2 { timers.expireAll() }
                default: break
                }
            }

            let summary = await refresher.refresh()
            #expect(timers.started == 3)
            #expect(summary.fetched == 1)
            #expect(summary.articles.new == 3)
            #expect(summary.failures.sorted { $0.source < $1.source } == [
                ImportFailure(source: server.url("broken.xml").absoluteString, reason: "the server answered HTTP 500"),
                ImportFailure(source: hanging.absoluteString, reason: "did not finish answering within 60 s (the overall timeout)"),
            ].sorted { $0.source < $1.source })
            #expect(try await data.store.count(Article.self) == 3)
        }
    }

    @Test func theCommandPrintsASummaryAndItsJSONAndSaysWhenAFeedFailed() async throws {
        try await withServer { server, data, folder in
            try await data.close()
            server.set("one.xml", Self.route(Self.items("o", 0..<2)))
            server.set("gone.xml", .status(404))
            let opml = try TestSupport.write("""
                <opml version="2.0"><body><outline text="News">
                  <outline type="rss" text="One" xmlUrl="\(server.url("one.xml"))"/>
                  <outline type="rss" text="Gone" xmlUrl="\(server.url("gone.xml"))"/>
                </outline></body></opml>
                """, named: "subs.opml", in: folder)
            let database = folder.appendingPathComponent("rss.sqlite")

            let subscribed = await TestSupport.rss(["import", "--no-fetch", opml.path], database: database)
            #expect(subscribed.status == 0, "\(subscribed.error)")
            #expect(subscribed.output.contains("subscribed to 2 new feeds without fetching"))
            #expect(server.requests.isEmpty)

            let refreshed = await TestSupport.rss(["refresh", "--json", "--timeout", "5"], database: database)
            #expect(refreshed.status == 1)
            let summary = try TestSupport.decode(RefreshSummary.self, from: refreshed.output)
            #expect(summary.fetched == 1)
            #expect(summary.articles.new == 2)
            #expect(summary.failures == [ImportFailure(source: server.url("gone.xml").absoluteString, reason: "the server answered HTTP 404")])
            #expect(refreshed.error.contains("failed \(server.url("gone.xml")): the server answered HTTP 404"))

            let one = await TestSupport.rss(["refresh", "--feed", server.url("one.xml").absoluteString], database: database)
            #expect(one.status == 0, "\(one.error)")
            #expect(one.output.contains("Refreshed 1 feed"))
            #expect(one.output.contains("0 fetched, 1 not modified, 0 failed"))
            let reopened = try await RSSDataController.open(at: database)
            #expect(reopened.feed(id: server.url("one.xml").absoluteString)?.folder == "News")
            #expect(reopened.feed(id: server.url("gone.xml").absoluteString)?.title == "Gone")
            try await reopened.close()
        }
    }

    @Test func onATerminalTheRefreshDrawsAProgressBar() async throws {
        try await withServer { server, data, folder in
            server.set("bar.xml", Self.route(Self.items("p", 0..<2)))
            try await subscribe([server.url("bar.xml")], in: data)
            try await data.close()
            let errorText = Mutex("")
            let terminal = Console(writeOutput: { _ in }, writeError: { text in errorText.withLock { $0 += text } }, isTerminal: true)
            let status = await RSSCommand.run(["refresh", "--database", folder.appendingPathComponent("rss.sqlite").path],
                                              console: terminal)
            #expect(status == 0)
            let drawn = errorText.withLock { $0 }
            #expect(drawn.contains("\r" + String(repeating: "█", count: 30) + " 1/1 feeds · 2 new articles"))
            #expect(drawn.hasSuffix("\n"))
        }
    }
}
