import FeedParser
import Foundation
import QSData
import RSSCore
import Testing

@MainActor
@Suite struct ImportTests {
    // MARK: Reference feeds

    @Test(.enabled(if: TestSupport.referenceFeedsAvailable, "../shared/reference/feeds is not present"))
    func theReferenceFeedsImportAndTheIllFormedOneIsReadUpToItsCut() async throws {
        try await TestSupport.withData { (data, _) async throws in
            let files = try FileManager.default.contentsOfDirectory(atPath: TestSupport.referenceFeeds.path)
                .filter { !$0.hasSuffix(".opml") }  // the OPML list names web URLs; this machine has no network
                .sorted()
                .map { FeedLocation.file(TestSupport.referenceFeeds.appendingPathComponent($0)) }
            let summary = await FeedImporter(data: data).importFeeds(from: files)

            // The ill-formed one is a CDATA section that never ends: its channel imports, and the
            // cut is reported; nothing is skipped.
            #expect(summary.feeds == files.count)
            #expect(summary.failures.isEmpty)
            #expect(summary.repairs.map(\.source).allSatisfy { $0.hasSuffix("feedparser-illformed-rss_incomplete_cdata.xml") })
            #expect(summary.repairs.contains { $0.reason.hasSuffix("the unfinished item was dropped") })
            let stored = try await data.store.count(Article.self)
            #expect(stored == summary.newArticles)
            #expect(try await data.store.count(Feed.self) == summary.feeds)
            // Every feed file's items are stored, counted independently with FeedParser.
            var expected = 0
            for location in files {
                let parsed = try FeedParser.parse(data: Data(contentsOf: location.url), url: location.url)
                expected += Set(parsed.items.map(\.uniqueID)).count
                let count = try await data.store.count(Article.self, where: "feedID = ?", arguments: [.text(location.url.absoluteString)])
                #expect(count == Set(parsed.items.map(\.uniqueID)).count, "\(location)")
            }
            #expect(stored == expected)
            #expect(data.totalUnreadCount == stored)
            #expect(try await data.store.count(Article.self, where: "feedID LIKE '%illformed%'") == 0)
        }
    }

    @Test(.enabled(if: TestSupport.referenceFeedsAvailable, "../shared/reference/feeds is not present"))
    func reimportingTheReferenceFeedsWritesNothing() async throws {
        try await TestSupport.withData { (data, _) async throws in
            let folder = FeedLocation.file(TestSupport.referenceFeeds.appendingPathComponent("inessential.json"))
            let atom = FeedLocation.file(TestSupport.referenceFeeds.appendingPathComponent("OneFootTsunami.atom"))
            let first = await FeedImporter(data: data).importFeeds(from: [folder, atom])
            #expect(first.newArticles > 0)
            let changesBefore = try await TestSupport.totalChanges(data.store)
            let second = await FeedImporter(data: data).importFeeds(from: [folder, atom])
            #expect(second.newArticles == 0)
            #expect(second.updatedArticles == 0)
            #expect(second.unchangedArticles == first.newArticles)
            #expect(try await TestSupport.totalChanges(data.store) == changesBefore)
        }
    }

    // MARK: Re-import

    @Test func importingTheSameFeedTwiceChangesNothing() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let file = try TestSupport.write(TestSupport.rss(items: TestSupport.items(5)), named: "feed.xml", in: folder)
            let first = await FeedImporter(data: data).importFeeds(from: [.file(file)])
            #expect(first.newArticles == 5)

            var changes: [QSChange] = []
            let observation = data.store.observeChanges { changes.append($0) }
            let changesBefore = try await TestSupport.totalChanges(data.store)
            var second = ImportSummary()
            let log = try await data.store.recordStatements {
                second = await FeedImporter(data: data).importFeeds(from: [.file(file)])
            }
            #expect(second.newArticles == 0)
            #expect(second.updatedArticles == 0)
            #expect(second.unchangedArticles == 5)
            // Statement evidence: SQLite changed no row, and no statement wrote a lookup row.
            #expect(try await TestSupport.totalChanges(data.store) == changesBefore)
            #expect(!log.statements.contains { $0.contains("INTO \"authorsArticlesLookup\"") || $0.hasPrefix("DELETE") }, "\(log)")
            #expect(changes.allSatisfy { $0.isEmpty })
            observation.cancel()
        }
    }

    @Test func importingAChangedFeedUpdatesExactlyTheChangedArticlesAndKeepsReadState() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            var items = TestSupport.items(5)
            let file = try TestSupport.write(TestSupport.rss(items: items), named: "feed.xml", in: folder)
            _ = await FeedImporter(data: data).importFeeds(from: [.file(file)])
            let all = try await data.articles()
            try data.markRead(all)
            try data.setStarred([all[0]], starred: true)
            try await data.store.flush()

            items[1].body = "Corrected body"
            items[3].title = "New title"
            items[4].authors = ["Ann", "Bob"]
            items.append(TestSupport.Item(guid: "item-5", title: "Brand new", day: 20))
            try TestSupport.write(TestSupport.rss(items: items), named: "feed.xml", in: folder)

            var updated: Set<String> = []
            let observation = data.store.observeChanges { updated.formUnion($0.updatedIDs(of: ArticleContent.self)) }
            let summary = await FeedImporter(data: data).importFeeds(from: [.file(file)])
            #expect(summary.newArticles == 1)
            #expect(summary.updatedArticles == 3)
            #expect(summary.unchangedArticles == 2)
            let ids = ["item-1", "item-3", "item-4"].map { guid in
                ArticleIdentifier.uniqueID(feedURL: file, externalID: guid, link: nil, title: nil, datePublished: nil, content: nil)
            }
            #expect(updated == Set(ids))

            // Read and starred state survive; the new article is unread; counts agree.
            #expect(try await data.store.count(ArticleSummary.self, where: "read = 1") == 5)
            #expect(try await data.store.count(ArticleSummary.self, where: "starred = 1") == 1)
            #expect(data.totalUnreadCount == 1)
            #expect(all.allSatisfy { $0.read })
            let corrected = try await data.article(id: ids[0])
            #expect(corrected.contentHTML == "Corrected body")
            #expect(corrected.read)
            #expect(try await data.article(id: ids[2]).authors.map(\.name) == ["Ann", "Bob"])
            #expect(all.first { $0.uniqueID == ids[1] }?.title == "New title", "the live list object sees the new title")
            observation.cancel()
        }
    }

    @Test func authorsAreSharedBetweenArticlesAndFeeds() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let one = try TestSupport.write(TestSupport.rss(items: TestSupport.items(3)), named: "one.xml", in: folder)
            let two = try TestSupport.write(TestSupport.rss(items: TestSupport.items(2)), named: "two.xml", in: folder)
            _ = await FeedImporter(data: data).importFeeds(from: [.file(one), .file(two)])
            #expect(try await data.store.count(Author.self) == 1)
            let lookups = try await data.store.fetchRows("SELECT count(*) FROM authorsArticlesLookup")
            #expect(lookups == [[.integer(5)]])
        }
    }

    @Test func anOPMLListImportsItsFeedsWithTheirFolders() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let one = try TestSupport.write(TestSupport.rss(title: "One", items: TestSupport.items(2)), named: "one.xml", in: folder)
            let two = try TestSupport.write(TestSupport.rss(title: "Two", items: TestSupport.items(3)), named: "two.xml", in: folder)
            let opml = try TestSupport.write("""
                <?xml version="1.0"?><opml version="2.0"><head><title>Subs</title></head><body>
                <outline text="Tech"><outline text="One" type="rss" xmlUrl="\(one.absoluteString)"/></outline>
                <outline text="Two" type="rss" xmlUrl="\(two.absoluteString)"/>
                <outline text="Two again" type="rss" xmlUrl="\(two.absoluteString)"/>
                </body></opml>
                """, named: "subs.opml", in: folder)
            let summary = await FeedImporter(data: data).importFeeds(from: [.file(opml)])
            #expect(summary.feeds == 2)
            #expect(summary.newArticles == 5)
            #expect(summary.failures.isEmpty)
            #expect(data.feed(id: one.absoluteString)?.folder == "Tech")
            #expect(data.feed(id: two.absoluteString)?.folder == nil)
            #expect(data.unreadCount(ofFeed: two.absoluteString) == 3)
        }
    }

    @Test func opmlEntriesThatAreNotURLsAreCountedAsSkipped() async throws {
        try await TestSupport.withData { data, folder in
            let one = try TestSupport.write(TestSupport.rss(title: "One", items: TestSupport.items(2)), named: "one.xml", in: folder)
            let opml = try TestSupport.write("""
                <?xml version="1.0"?><opml version="2.0"><head><title>Subs</title></head><body>
                <outline text="One" type="rss" xmlUrl="\(one.absoluteString)"/>
                <outline text="Plain path" type="rss" xmlUrl="\(one.path)"/>
                <outline text="Relative" type="rss" xmlUrl="feeds/two.xml"/>
                </body></opml>
                """, named: "subs.opml", in: folder)
            let summary = await FeedImporter(data: data).importFeeds(from: [.file(opml)])
            #expect(summary.feeds == 1)
            #expect(summary.skippedFeeds == 2)
            #expect(summary.failures.map(\.source) == [one.path, "feeds/two.xml"])
            #expect(summary.failures.allSatisfy { $0.reason.hasPrefix("not a URL in \(opml.path)") })
        }
    }
}
