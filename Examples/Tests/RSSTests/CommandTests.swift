import CommandLineTool
import ExampleTestSupport
import Foundation
import RSSCore
import Testing
@testable import RSSCommands

/// Every `rss` command, run in-process on a temporary database, as a person or a script would.
@Suite struct CommandTests {
    private struct Setup {
        let testFolder: TestFolder
        var folder: URL { testFolder.url }
        let database: URL
        let feed: URL
    }

    /// A database with one imported feed of five articles.
    private func setUp() async throws -> Setup {
        let folder = try TestFolder(prefix: "rss-tests")
        let feed = try TestSupport.write(TestSupport.rss(title: "Test feed", items: TestSupport.items(5)), named: "feed.xml", in: folder.url)
        let database = folder.appending("db/rss.sqlite")
        let run = await TestSupport.rss(["import", feed.path], database: database)
        #expect(run.status == 0, "\(run.error)")
        return Setup(testFolder: folder, database: database, feed: feed)
    }

    private func list(_ setup: Setup, _ arguments: [String] = []) async throws -> [ArticleSummaryJSON] {
        let run = await TestSupport.rss(["list", "--json"] + arguments, database: setup.database)
        #expect(run.status == 0, "\(run.error)")
        return try TestSupport.decode([ArticleSummaryJSON].self, from: run.output)
    }

    @Test func importPrintsASummaryAndJSON() async throws {
        let setup = try await setUp()
        let again = await TestSupport.rss(["import", "--json", setup.feed.path], database: setup.database)
        #expect(again.status == 0)
        let summary = try TestSupport.decode(ImportSummary.self, from: again.output)
        #expect(summary.feeds == 1)
        #expect(summary.newArticles == 0)
        #expect(summary.unchangedArticles == 5)
        let text = await TestSupport.rss(["import", setup.feed.path], database: setup.database)
        #expect(text.output.contains("Test feed (\(setup.feed.path)): 0 new, 0 updated, 5 unchanged"))
        #expect(text.output.contains("Imported 1 feed in "))
    }

    @Test func importReportsFailuresOnStandardErrorAndExitsNonZero() async throws {
        let setup = try await setUp()
        let run = await TestSupport.rss(["import", setup.folder.appendingPathComponent("missing.xml").path, setup.feed.path], database: setup.database)
        #expect(run.status == 1)
        #expect(run.error.contains("skipped \(setup.folder.path)/missing.xml: no such file or directory"))
        #expect(run.error.hasSuffix("rss: 1 source could not be imported (listed above)\n"))
        #expect(run.output.contains("Imported 1 feed"))
    }

    @Test func feedsListsFeedsWithUnreadCounts() async throws {
        let setup = try await setUp()
        let run = await TestSupport.rss(["feeds", "--json"], database: setup.database)
        let feeds = try TestSupport.decode([FeedJSON].self, from: run.output)
        #expect(feeds.map(\.id) == [setup.feed.absoluteString])
        #expect(feeds.first?.title == "Test feed")
        #expect(feeds.first?.homePageURL == "https://example.com/")
        #expect(feeds.first?.folder == nil)
        #expect(feeds.first?.unread == 5)
        let text = await TestSupport.rss(["feeds"], database: setup.database)
        #expect(text.output == "     5  Test feed  <\(setup.feed.absoluteString)>\n")
    }

    @Test func listFiltersByUnreadStarredFeedAndLimit() async throws {
        let setup = try await setUp()
        let all = try await list(setup)
        #expect(all.count == 5)
        #expect(all.map(\.datePublished) == all.map(\.datePublished).sorted { ($0 ?? .distantPast) > ($1 ?? .distantPast) })
        #expect(try await list(setup, ["--limit", "2"]).count == 2)
        #expect(try await list(setup, ["--feed", "Test feed"]).count == 5)
        #expect(try await list(setup, ["--feed", "feed.xml"]).count == 5)
        _ = await TestSupport.rss(["mark-read", all[0].id], database: setup.database)
        _ = await TestSupport.rss(["star", all[1].id], database: setup.database)
        #expect(try await list(setup, ["--unread"]).map(\.id) == all.dropFirst().map(\.id))
        #expect(try await list(setup, ["--starred"]).map(\.id) == [all[1].id])
        let text = await TestSupport.rss(["list", "--limit", "2"], database: setup.database)
        let lines = text.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("\(all[0].id)    "))
        #expect(lines[1].hasPrefix("\(all[1].id) •★ "))
        #expect(lines[0].hasSuffix("Test feed — \(all[0].title ?? "")"))
    }

    @Test func showPrintsTheArticleWithAuthors() async throws {
        let setup = try await setUp()
        let first = try #require(try await list(setup).first)
        let run = await TestSupport.rss(["show", "--json", first.id], database: setup.database)
        let article = try TestSupport.decode(ArticleJSON.self, from: run.output)
        #expect(article.id == first.id)
        #expect(article.authors == ["Ann"])
        #expect(article.contentHTML == "Body")
        #expect(article.read == false)
        let text = await TestSupport.rss(["show", first.id], database: setup.database)
        #expect(text.output.contains("By:        Ann\n"))
        #expect(text.output.hasSuffix("\nBody\n"))
    }

    @Test func markReadByIDFeedDateAndAllAndMarkUnread() async throws {
        let setup = try await setUp()
        let all = try await list(setup)
        var run = await TestSupport.rss(["mark-read", all[0].id, all[1].id], database: setup.database)
        #expect(run.output == "Marked 2 articles read.\n")
        run = await TestSupport.rss(["mark-read", "--before", "2024-03-04"], database: setup.database)
        #expect(run.status == 0, "\(run.error)")
        let beforeCount = all.filter { ($0.datePublished ?? .distantFuture) < Date(timeIntervalSince1970: 1_709_510_400) && !all.prefix(2).map(\.id).contains($0.id) }.count
        #expect(run.output == "Marked \(beforeCount == 1 ? "1 article" : "\(beforeCount) articles") read.\n")
        run = await TestSupport.rss(["mark-unread", "--all"], database: setup.database)
        #expect(run.output == "Marked \(2 + beforeCount) articles read.\n".replacingOccurrences(of: "read.", with: "unread."))
        run = await TestSupport.rss(["mark-read", "--feed", setup.feed.absoluteString], database: setup.database)
        #expect(run.output == "Marked 5 articles read.\n")
        #expect(try await list(setup, ["--unread"]).isEmpty)
        run = await TestSupport.rss(["mark-unread", all[2].id], database: setup.database)
        #expect(try await list(setup, ["--unread"]).map(\.id) == [all[2].id])
    }

    @Test func starAndUnstar() async throws {
        let setup = try await setUp()
        let all = try await list(setup)
        var run = await TestSupport.rss(["star", all[0].id, all[3].id], database: setup.database)
        #expect(run.output == "Starred 2 articles.\n")
        run = await TestSupport.rss(["unstar", all[0].id], database: setup.database)
        #expect(run.output == "Unstarred 1 article.\n")
        #expect(try await list(setup, ["--starred"]).map(\.id) == [all[3].id])
    }

    @Test func deleteOldReadArticlesAndAFeed() async throws {
        let setup = try await setUp()
        _ = await TestSupport.rss(["mark-read", "--all"], database: setup.database)
        var run = await TestSupport.rss(["delete", "--read-older-than", "30"], database: setup.database)
        #expect(run.output == "Deleted 5 read articles older than 30 days. (1 author no longer credited were deleted too.)\n")
        _ = await TestSupport.rss(["import", setup.feed.path], database: setup.database)
        run = await TestSupport.rss(["delete", "--feed", "Test feed"], database: setup.database)
        #expect(run.output.hasPrefix("Deleted the feed Test feed and its 5 articles."))
        let feeds = await TestSupport.rss(["feeds", "--json"], database: setup.database)
        #expect(try TestSupport.decode([FeedJSON].self, from: feeds.output).isEmpty)
    }

    @Test func statsCountsEverything() async throws {
        let setup = try await setUp()
        let all = try await list(setup)
        _ = await TestSupport.rss(["mark-read", all[0].id], database: setup.database)
        _ = await TestSupport.rss(["star", all[0].id], database: setup.database)
        let run = await TestSupport.rss(["stats", "--json"], database: setup.database)
        let stats = try TestSupport.decode(RSSStatistics.self, from: run.output)
        #expect(stats.feeds == 1)
        #expect(stats.articles == 5)
        #expect(stats.unread == 4)
        #expect(stats.starred == 1)
        #expect(stats.authors == 1)
        #expect(stats.databaseBytes > 0)
        let text = await TestSupport.rss(["stats"], database: setup.database)
        #expect(text.output.contains("Articles:  5 (4 unread, 1 starred)"))
    }

    @Test func demoReportsOneStatementForMarkReadAndTwoForDelete() async throws {
        let folder = try TestFolder(prefix: "rss-tests")
        let run = await TestSupport.rss(["demo", "--json", "--articles", "3000", "--bulk", "1000"], database: folder.appending("demo.sqlite"))
        #expect(run.status == 0, "\(run.error)")
        let report = try TestSupport.decode(DemoRunner.Report.self, from: run.output)
        #expect(report.articles == 3_000)
        #expect(report.markReadCount == 1_000)
        #expect(report.markReadStatements == 1)
        #expect(report.markReadPatchedObjects == 1_000)
        #expect(report.unreadAfterMarkRead == 2_000)
        #expect(report.deleteStatements == 1 + report.deleteRelationships)
        #expect(report.unreadAfterDelete == 1_000)
        #expect(report.cachedSummariesAfterDelete == 2_000)
        #expect(report.countsMatchDatabase)
        // The live unread list: one UPDATE and one re-fetch for marking read; starring is patched in.
        #expect(report.liveMarkReadStatements == 2)
        #expect(report.liveMarkReadRefetches == 1)
        #expect(report.liveStarStatements == 1)
        #expect(report.liveStarRefetches == 0)
        #expect(report.searchResults == 3)
        #expect(report.searchStatements >= 1 && report.searchStatements <= 2)
        let text = await TestSupport.rss(["demo", "--articles", "500", "--bulk", "100"], database: folder.appending("demo2.sqlite"))
        #expect(text.output.contains("Mark 100 read: 1 SQL statement, "))
        #expect(text.output.contains("Delete 100 articles with their authors: 2 SQL statements (1 + 1 relationship)"))
    }

    @Test func searchFindsArticlesByTheirTextBestFirstWithSnippets() async throws {
        let folder = try TestFolder(prefix: "rss-tests")
        let items = [
            TestSupport.Item(guid: "a", title: "Quantum computing explained", body: "Qubits and quantum gates, quantum everything"),
            TestSupport.Item(guid: "b", title: "Cooking", body: "Quantum dots in the kitchen? No."),
            TestSupport.Item(guid: "c", title: "Gardening tips", body: "Tomatoes"),
        ]
        let feed = try TestSupport.write(TestSupport.rss(items: items), named: "feed.xml", in: folder.url)
        let database = folder.appending("rss.sqlite")
        #expect(await TestSupport.rss(["import", feed.path], database: database).status == 0)

        let run = await TestSupport.rss(["search", "quantum", "--json"], database: database)
        #expect(run.status == 0, "\(run.error)")
        let results = try TestSupport.decode([SearchResultJSON].self, from: run.output)
        #expect(results.map(\.article.title) == ["Quantum computing explained", "Cooking"])
        #expect(results.last?.snippet == "[Quantum] dots in the kitchen? No.")
        let text = await TestSupport.rss(["search", "computing quant"], database: database)
        #expect(text.output.contains("Quantum computing explained\n    [Quantum] [computing] explained\n"), "\(text.output)")
        #expect(await TestSupport.rss(["search", "tomato"], database: database).output.contains("Gardening tips"))
        // Typed text is never FTS5 syntax, and the filters apply.
        let odd = await TestSupport.rss(["search", "\"(quantum", "--json"], database: database)
        #expect(try TestSupport.decode([SearchResultJSON].self, from: odd.output).count == 2)
        let ids = results.map(\.article.id)
        #expect(await TestSupport.rss(["mark-read", ids[0]], database: database).status == 0)
        let unread = await TestSupport.rss(["search", "quantum", "--unread", "--json"], database: database)
        #expect(try TestSupport.decode([SearchResultJSON].self, from: unread.output).map(\.article.id) == [ids[1]])
        #expect(await TestSupport.rss(["search", "sorbet"], database: database).output == "No articles match \"sorbet\".\n")
    }

    @Test func errorsAreOneLineOnStandardErrorWithANonZeroStatus() async throws {
        let setup = try await setUp()
        var run = await TestSupport.rss(["show", "0000000000000000"], database: setup.database)
        #expect(run.status != 0)
        #expect(run.error == "rss: no article with ID '0000000000000000'\n")
        run = await TestSupport.rss(["list", "--feed", "nothing like it"], database: setup.database)
        #expect(run.error == "rss: no feed 'nothing like it' (see `rss feeds`)\n")
        run = await TestSupport.rss(["mark-read"], database: setup.database)
        #expect(run.status != 0)
        #expect(run.error.hasPrefix("rss: "))
        #expect(run.error.filter { $0 == "\n" }.count == 1)
        run = await TestSupport.rss(["mark-read", "--before", "yesterday"], database: setup.database)
        #expect(run.status != 0)
        #expect(run.error.filter { $0 == "\n" }.count == 1)
        run = await TestSupport.rss(["frobnicate"], database: setup.database)
        #expect(run.status != 0)
        run = await TestSupport.rss(["star"], database: setup.database)
        #expect(run.status == 64)
        #expect(run.error.hasPrefix("rss: Missing expected argument"))
        #expect(run.error.filter { $0 == "\n" }.count == 1)
    }

    @Test func aDatabaseThatIsNotSQLiteIsAClearError() async throws {
        let folder = try TestFolder(prefix: "rss-tests")
        let bogus = try TestSupport.write("this is not a database, just text that is long enough to be a header", named: "bogus.sqlite", in: folder.url)
        let run = await TestSupport.rss(["feeds"], database: bogus)
        #expect(run.status != 0)
        #expect(run.error.hasPrefix("rss: "))
        #expect(run.error.filter { $0 == "\n" }.count == 1)
    }

    @Test func theDefaultDatabaseFollowsXDGDataHome() {
        #expect(GlobalOptions.defaultDatabaseURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path == "/data/rss/rss.sqlite")
        #expect(GlobalOptions.defaultDatabaseURL(environment: ["HOME": "/home/a"]).path == "/home/a/.local/share/rss/rss.sqlite")
    }

    @Test func helpIsPrintedAndSucceeds() async throws {
        let (console, output, _) = Console.capturing()
        let status = await RSSCommand.run(["--help"], console: console)
        #expect(status == 0)
        #expect(output.text.contains("mark-read"))
    }
}
