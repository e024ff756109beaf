import FeedParser
import ExampleTestSupport
import Foundation
import QSData
import RSSCore
import Testing

/// Nothing imports empty, or short, without a word; repeated guids are counted; old databases
/// gain the columns `rss refresh` needs.
@MainActor
@Suite struct NoSilentEmptiesTests {
    /// An Atom-like document in a namespace the reader does not know: recognised as a feed, but
    /// none of its entries can be read.
    static let unknownDialect = """
        <feed xmlns="https://unknown.example/atom-draft"><title>Draft</title>
          <entry><title>one</title></entry><entry><title>two</title></entry>
        </feed>
        """

    @Test func aFeedWhoseItemsCannotBeReadIsAWarningInTextAndJSONAndTheExitStatus() async throws {
        let folder = try TestFolder(prefix: "rss-tests")
        let odd = try TestSupport.write(Self.unknownDialect, named: "draft.xml", in: folder.url)
        let good = try TestSupport.write(TestSupport.rss(items: TestSupport.items(2)), named: "good.xml", in: folder.url)
        let database = folder.appending("rss.sqlite")

        let text = await TestSupport.rss(["import", odd.path, good.path], database: database)
        #expect(text.status == 1)
        #expect(text.error.contains("warning: \(odd.path): no articles read: the document has 2 item or entry elements"))
        #expect(text.output.contains("Imported 2 feeds"))
        #expect(text.output.contains("1 warning"))

        let json = await TestSupport.rss(["import", "--json", odd.path], database: database)
        #expect(json.status == 1)
        let summary = try TestSupport.decode(ImportSummary.self, from: json.output)
        #expect(summary.warnings.map(\.source) == [odd.path])
        #expect(summary.feeds == 1)
        #expect(summary.failures.isEmpty)

        let clean = await TestSupport.rss(["import", good.path], database: database)
        #expect(clean.status == 0)
        #expect(!clean.error.contains("warning"))
    }

    @Test func duplicateGuidsAreCountedAndTheFirstCopyIsKept() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            var items = TestSupport.items(5)
            items.append(TestSupport.Item(guid: "item-1", title: "An older copy of item 1"))
            items.append(TestSupport.Item(guid: "item-3", title: "An older copy of item 3"))
            let file = try TestSupport.write(TestSupport.rss(items: items), named: "repeats.xml", in: folder)

            var events: [ImportEvent] = []
            let importer = FeedImporter(data: data)
            importer.onEvent = { events.append($0) }
            let summary = await importer.importFeeds(from: [.file(file)])
            #expect(summary.newArticles == 5)
            #expect(summary.duplicateArticles == 2)
            #expect(summary.warnings.isEmpty)
            #expect(events.contains(.imported(source: file.path, title: "Test feed", articles: StoredArticles(new: 5, duplicates: 2))))
            let titles = try await data.articles().compactMap(\.title).sorted()
            #expect(titles == ["Item 0", "Item 1", "Item 2", "Item 3", "Item 4"])

            let text = await TestSupport.rss(["import", file.path], database: folder.appendingPathComponent("rss.sqlite"))
            #expect(text.status == 0)
            #expect(text.output.contains("5 unchanged articles, 2 duplicates"))
        }
    }

    @Test func anExistingDatabaseIsMigratedAndKeepsItsFeeds() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let database = folder.appendingPathComponent("rss.sqlite")
            // Make it the database an older reader wrote: no refresh columns, no search index, no
            // feed addresses or host pauses, no record of articles that left their feed, user_version 0.
            try await data.store.execute("INSERT INTO feeds (uniqueID, title) VALUES ('https://old.example.com/feed', 'Old')")
            for column in ["address", "etag", "lastModified"] {
                try await data.store.execute("ALTER TABLE feeds DROP COLUMN \(column)")
            }
            for trigger in ["articlesSearchInsert", "articlesSearchDelete", "articlesSearchUpdate"] {
                try await data.store.execute("DROP TRIGGER \(trigger)")
            }
            try await data.store.execute("DROP TABLE articlesSearch")
            try await data.store.execute("DROP TABLE feedAddresses")
            try await data.store.execute("DROP TABLE hostPauses")
            try await data.store.execute("DROP INDEX articlesLeftFeedIndex")
            try await data.store.execute("ALTER TABLE articles DROP COLUMN leftFeedAt")
            try await data.store.execute("PRAGMA user_version = 0")
            try await data.close()

            let reopened = try await RSSDataController.open(at: database)
            let feed = try #require(reopened.feed(id: "https://old.example.com/feed"))
            #expect(feed.title == "Old")
            #expect(feed.etag == nil)
            #expect(feed.address == nil)
            let version = try await reopened.store.fetchRows("PRAGMA user_version")
            #expect(version.first?.first == .integer(UpgradeTests.currentVersion))
            try await reopened.close()
        }
    }
}
