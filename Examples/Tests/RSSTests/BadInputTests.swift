import DeadlineHTTP
import ExampleTestSupport
import Foundation
import QSData
import RSSCore
import Testing

@MainActor
@Suite struct BadInputTests {
    @Test func aMissingFileIsReportedAndNothingIsStored() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let missing = folder.appendingPathComponent("nope.xml")
            let summary = await FeedImporter(data: data).importFeeds(from: [.file(missing)])
            #expect(summary.failures == [ImportFailure(source: missing.path, reason: "no such file or directory")])
            #expect(summary.feeds == 0)
            #expect(try await data.store.count(Feed.self) == 0)
        }
    }

    @Test func aRefusedConnectionIsReportedWhileLocalFeedsImport() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            // Bound but not listening, and held for the whole test: connecting is refused, and no
            // other test's server can take the port meanwhile.
            let refusing = try LoopbackSocket(listening: false)
            let port = refusing.port
            let good = try TestSupport.write(TestSupport.rss(items: TestSupport.items(3)), named: "good.xml", in: folder)
            let url = try FeedLocation(argument: "http://127.0.0.1:\(port)/feed.xml")
            // The refusal is reported at the first attempt: a client that retried it until the
            // ten-minute connect deadline would be ended by the one-minute total deadline instead.
            let deadlines = HTTPDeadlines(connect: .seconds(600), firstByte: .seconds(60), total: .seconds(60))
            let summary = await FeedImporter(data: data, loader: FeedLoader(deadlines: deadlines)).importFeeds(from: [url, .file(good)])
            #expect(summary.feeds == 1)
            #expect(summary.failures.count == 1)
            #expect(summary.failures.first?.source == "http://127.0.0.1:\(port)/feed.xml")
            #expect(summary.failures.first?.reason == "127.0.0.1 refused the connection")
            #expect(try await data.store.count(Feed.self) == 1)
        }
    }

    /// A feed cut off in its fourth item keeps its three complete ones, with a warning naming
    /// the cut; an empty file and a file that is no feed are skipped; the others import.
    @Test func aDirectoryWithACutOffFeedImportsWhatCanBeReadAndSaysSo() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let feeds = folder.appendingPathComponent("feeds")
            try TestSupport.write(TestSupport.rss(items: TestSupport.items(3)), named: "a.xml", in: feeds)
            let broken = String(TestSupport.rss(items: TestSupport.items(4)).dropLast(40))
            let brokenURL = try TestSupport.write(broken, named: "b.xml", in: feeds)
            try TestSupport.write(TestSupport.rss(items: TestSupport.items(5)), named: "nested/c.xml", in: feeds)
            try TestSupport.write("", named: "empty.xml", in: feeds)
            try TestSupport.write("not a feed at all", named: "notes.txt", in: feeds)

            let summary = await FeedImporter(data: data).importFeeds(from: [.file(feeds)])
            #expect(summary.feeds == 3)
            #expect(summary.newArticles == 3 + 3 + 5)
            #expect(summary.failures.map(\.source).sorted() == [feeds.appendingPathComponent("empty.xml").path, feeds.appendingPathComponent("notes.txt").path])
            #expect(summary.repairs.count == 1)
            #expect(summary.repairs.first?.source == brokenURL.path)
            #expect(summary.repairs.first?.reason.hasPrefix("repaired: line ") == true)
            #expect(summary.repairs.first?.reason.hasSuffix("the document ends before it is complete; the unfinished item was dropped") == true)
            #expect(summary.warnings.isEmpty, "no item that was complete is left unread")
            #expect(try await data.store.count(Article.self, where: "feedID = ?", arguments: [.text(brokenURL.absoluteString)]) == 3)
        }
    }

    /// The bare ampersand and the control character that used to lose a whole feed: every item
    /// imports, the command says what it repaired, and exits 0.
    @Test func aFeedWithXMLErrorsImportsEveryItemAndTheCommandNamesTheRepairs() async throws {
        try await TestSupport.withData { (_, folder) async throws in
            let feed = """
                <rss version="2.0"><channel><title>Cartoons</title>
                <item><title>Tom & Jerry</title><guid>1</guid></item>
                <item><title>Item\u{0B}2</title><guid>2</guid></item>
                <item><title>Three</title><guid>3</guid><description>Hello <b>world</b>, more text</description></item>
                </channel></rss>
                """
            let file = try TestSupport.write(feed, named: "cartoons.xml", in: folder)
            let database = folder.appendingPathComponent("rss.sqlite")
            let run = await TestSupport.rss(["import", file.path], database: database)
            #expect(run.status == 0)
            #expect(run.error.contains("warning: \(file.path): repaired: line 2: a bare \"&\" read as text"))
            #expect(run.error.contains("warning: \(file.path): repaired: line 3: a character XML does not allow, replaced"))
            #expect(run.output.contains("3 new"))
            #expect(run.output.contains("2 warnings"))
            let listed = await TestSupport.rss(["list", "--json"], database: database)
            #expect(listed.output.contains("Tom & Jerry"))
            #expect(listed.output.contains("Item 2"))
        }
    }

    @Test func deeplyNestedOPMLImportsItsFeedsWithTheFolderPath() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let feed = try TestSupport.write(TestSupport.rss(items: TestSupport.items(2)), named: "deep.xml", in: folder)
            let depth = 200
            let opening = (0..<depth).map { "<outline text=\"f\($0)\">" }.joined()
            let closing = String(repeating: "</outline>", count: depth)
            let opml = try TestSupport.write("""
                <?xml version="1.0"?><opml version="2.0"><head/><body>\(opening)<outline text="Deep" xmlUrl="\(feed.absoluteString)"/>\(closing)</body></opml>
                """, named: "deep.opml", in: folder)
            let summary = await FeedImporter(data: data).importFeeds(from: [.file(opml)])
            #expect(summary.failures.isEmpty)
            #expect(summary.newArticles == 2)
            #expect(data.feed(id: feed.absoluteString)?.folder?.split(separator: "/").count == depth)
        }
    }

    @Test func hostileOPMLNestingIsAnErrorNotACrash() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let depth = 100_000
            let opml = try TestSupport.write(
                "<?xml version=\"1.0\"?><opml version=\"2.0\"><body>" + String(repeating: "<outline text=\"x\">", count: depth)
                    + String(repeating: "</outline>", count: depth) + "</body></opml>",
                named: "hostile.opml", in: folder)
            let summary = await FeedImporter(data: data).importFeeds(from: [.file(opml)])
            #expect(summary.failures.count == 1)
            #expect(summary.failures.first?.reason.contains("nested deeper than") == true)
            #expect(try await data.store.count(Feed.self) == 0)
        }
    }

    @Test func anOPMLListThatNamesItselfDoesNotLoop() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let url = folder.appendingPathComponent("self.opml")
            try TestSupport.write("""
                <?xml version="1.0"?><opml version="2.0"><body><outline text="me" xmlUrl="\(url.absoluteString)"/></body></opml>
                """, named: "self.opml", in: folder)
            let summary = await FeedImporter(data: data).importFeeds(from: [.file(url)])
            #expect(summary.feeds == 0)
            #expect(summary.failures.isEmpty)
        }
    }

    @Test func aLargeFeedImportsCompletely() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let body = String(repeating: "Lorem ipsum dolor sit amet. ", count: 20)
            let file = try TestSupport.write(TestSupport.rss(items: TestSupport.items(20_000, body: body)), named: "large.xml", in: folder)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
            #expect(size > 10_000_000)
            let summary = await FeedImporter(data: data).importFeeds(from: [.file(file)])
            #expect(summary.failures.isEmpty)
            #expect(summary.newArticles == 20_000)
            #expect(try await data.store.count(Article.self) == 20_000)
            #expect(data.totalUnreadCount == 20_000)
        }
    }

    @Test func aFeedOverTheSizeLimitIsRefused() async throws {
        try await TestSupport.withData { (data, folder) async throws in
            let file = try TestSupport.write(TestSupport.rss(items: TestSupport.items(50)), named: "big.xml", in: folder)
            let summary = await FeedImporter(data: data, loader: FeedLoader(maximumBytes: 1_000)).importFeeds(from: [.file(file)])
            #expect(summary.failures.first?.reason.hasPrefix("too large") == true)
            #expect(try await data.store.count(Feed.self) == 0)
        }
    }

    @Test func unsupportedURLSchemesAreRejected() {
        #expect(throws: RSSError.self) { try FeedLocation(argument: "ftp://example.com/feed.xml") }
        #expect(throws: RSSError.self) { try FeedLocation(argument: "http://") }
    }
}
