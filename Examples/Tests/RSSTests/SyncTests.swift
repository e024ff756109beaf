import ExampleTestSupport
import Foundation
import Logging
import QSData
import QSDataSync
import RSSCore
import SyncServerKit
import Testing

/// Two reader databases syncing through a real sync server in this process.
@MainActor
@Suite(.serialized)
struct SyncTests {
    /// Runs `body` with a server and two logged-in readers, A and B, then closes everything.
    func withTwoReaders(_ body: (RSSDataController, RSSDataController) async throws -> Void) async throws {
        let folder = try TestFolder(prefix: "rss-sync")
        var logger = Logger(label: "rss-sync-tests")
        logger.logLevel = .warning
        let server = try await RunningSyncServer.start(SyncServer(
            database: .sqlite(path: folder.appending("server.sqlite").path), host: "127.0.0.1", port: 0, bcryptCost: 4, logger: logger))
        let a = try await RSSDataController.open(at: folder.appending("a.sqlite"))
        let b = try await RSSDataController.open(at: folder.appending("b.sqlite"))
        do {
            _ = try await a.createSyncAccount(server: server.baseURL, username: "ann", password: "password-ann")
            _ = try await b.logInToSync(server: server.baseURL, username: "ann", password: "password-ann")
            try await body(a, b)
        } catch {
            try? await a.close()
            try? await b.close()
            try await server.shutdown()
            throw error
        }
        try await a.close()
        try await b.close()
        try await server.shutdown()
    }

    @Test func tenThousandMarkedReadOnOneAreReadOnTheOther() async throws {
        try await withTwoReaders { a, b in
            try await Bulk.store(Bulk.articles(10_000), in: a)
            _ = try await a.syncNow()
            let first = try await b.syncNow()
            #expect(first.appliedObjects == 10_000 + 10 + 50, "articles, feeds and authors")
            #expect(b.totalUnreadCount == 10_000)
            #expect(b.feeds.count == 10)

            #expect(try await a.markAllRead(ArticleFilter()) == 10_000)
            #expect(try await a.waitingSyncChanges() == 10_000)
            let push = try await a.syncNow()
            #expect(push.pushRequests == 1 && push.pushedObjects == 10_000)
            let pull = try await b.syncNow()
            #expect(pull.appliedObjects == 10_000)
            #expect(b.totalUnreadCount == 0)
            #expect(try await b.store.fetchRows("SELECT count(*) FROM articles WHERE read = 1") == [[.integer(10_000)]])
        }
    }

    @Test func unsubscribingOnOneWhileTheOtherStarsAnArticleDeletesTheFeedOnBoth() async throws {
        try await withTwoReaders { a, b in
            try await Bulk.store(Bulk.articles(100, feeds: 2), in: a)
            _ = try await a.syncNow()
            _ = try await b.syncNow()
            let gone = try #require(a.feed(id: "https://feed0.example.com/"))
            // At the same time, offline from each other: A unsubscribes, B stars one of its articles.
            _ = try await a.deleteFeed(gone)
            #expect(try await b.setStarred(ids: ["a000000"], starred: true) == 1)
            _ = try await a.syncNow()
            _ = try await b.syncNow()
            _ = try await a.syncNow()
            for reader in [a, b] {
                #expect(reader.feed(id: "https://feed0.example.com/") == nil)
                #expect(reader.feed(id: "https://feed1.example.com/") != nil)
                #expect(try await reader.store.fetchRows("SELECT count(*) FROM articles WHERE feedID = 'https://feed0.example.com/'") == [[.integer(0)]])
                #expect(try await reader.store.fetchRows("SELECT count(*) FROM articles") == [[.integer(50)]])
                #expect(try await reader.store.fetchRows("SELECT count(*) FROM articles WHERE starred = 1") == [[.integer(0)]])
            }
        }
    }

    @Test func syncingWithoutAnAccountSaysHowToLogIn() async throws {
        try await TestSupport.withData { data, _ in
            await #expect(throws: RSSError.syncFailed("not logged in: run `rss account login` (or `rss account create`) first")) {
                _ = try await data.syncNow()
            }
        }
    }
}
