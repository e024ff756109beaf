import CommandLineTool
import ExampleTestSupport
import Foundation
import QSData
import RSSCommands
import RSSCore
import Testing

/// Temporary folders, databases, feed documents and CLI runs for the RSS tests.
enum TestSupport {
    /// The repository root, found from this file.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // RSSTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // Examples
        .deletingLastPathComponent()

    /// `../shared/reference/feeds` next to the repository; tests skip when it is absent.
    static let referenceFeeds = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/reference/feeds")

    static var referenceFeedsAvailable: Bool {
        FileManager.default.fileExists(atPath: referenceFeeds.path)
    }

    /// Runs `body` with a controller on a new database in a new folder, then expects the
    /// store's integrity check to be clean (unless `body` closed it), closes the controller and
    /// removes the folder.
    @MainActor
    static func withData(_ body: (RSSDataController, URL) async throws -> Void) async throws {
        let folder = try TestFolder(prefix: "rss-tests")
        let database = folder.appending("rss.sqlite")
        let data = try await RSSDataController.open(at: database)
        do {
            try await body(data, folder.url)
        } catch {
            do { try await data.close() } catch { Issue.record(error, "closing after a failure") }
            throw error
        }
        try await data.close()
        // Checked on a fresh open, so tests that close the store to run a command are checked too.
        let reopened = try await RSSDataController.open(at: database)
        do {
            try await expectIntegrity(reopened.store)
        } catch {
            do { try await reopened.close() } catch { Issue.record(error, "closing after a failure") }
            throw error
        }
        try await reopened.close()
    }

    /// Writes `text` to `folder/name` and returns the file's URL.
    @discardableResult
    static func write(_ text: String, named name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// One RSS item.
    struct Item {
        var guid: String
        var title: String
        var body = "Body"
        var authors: [String] = ["Ann"]
        var day = 1
    }

    /// An RSS 2.0 document with these items.
    static func rss(title: String = "Test feed", items: [Item]) -> String {
        let entries = items.map { item in
            """
            <item><guid isPermaLink="false">\(item.guid)</guid><title>\(item.title)</title>\
            <link>https://example.com/\(item.guid)</link>\
            <pubDate>\(String(format: "%02d", item.day)) Mar 2024 10:00:00 GMT</pubDate>\
            \(item.authors.map { "<dc:creator>\($0)</dc:creator>" }.joined())\
            <description>\(item.body)</description></item>
            """
        }.joined(separator: "\n")
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
        <title>\(title)</title><link>https://example.com/</link><description>d</description>
        \(entries)
        </channel></rss>
        """
    }

    /// Items numbered from 0.
    static func items(_ count: Int, body: String = "Body") -> [Item] {
        (0..<count).map { Item(guid: "item-\($0)", title: "Item \($0)", body: body, day: 1 + $0 % 28) }
    }

    /// The number of rows SQLite changed on the store's connection since it opened.
    @MainActor
    static func totalChanges(_ store: QSStore) async throws -> Int64 {
        let rows = try await store.fetchRows("SELECT total_changes()")
        guard case .integer(let value)? = rows.first?.first else { return -1 }
        return value
    }

    /// The result of running `rss` in-process.
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `rss` with these arguments on the database at `database`. After a command that
    /// succeeded, the database must be consistent (see ``expectIntegrity(_:)``).
    static func rss(_ arguments: [String], database: URL) async -> Run {
        let (console, output, error) = Console.capturing()
        let status = await RSSCommand.run(arguments + ["--database", database.path], console: console)
        if status == 0, FileManager.default.fileExists(atPath: database.path) {
            do {
                let data = try await RSSDataController.open(at: database)
                try await expectIntegrity(data.store)
                try await data.store.close()
            } catch {
                Issue.record("after rss \(arguments.joined(separator: " ")): \(error)")
            }
        }
        return Run(status: status, output: output.text, error: error.text)
    }

    /// Expects the store's integrity check to find nothing: no lookup row without its parent or
    /// child, and nothing SQLite's own checks report.
    @MainActor
    static func expectIntegrity(_ store: QSStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let report = try await store.checkIntegrity()
        #expect(report.isClean, "\(report)", sourceLocation: sourceLocation)
    }

    /// Decodes JSON a command printed.
    static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(text.utf8))
    }
}

/// Articles and authors made in code, for tests that need many.
@MainActor
enum Bulk {
    /// `count` articles in `feeds` feeds; each has two of `authorCount` shared authors.
    static func articles(_ count: Int, feeds: Int = 10, authorCount: Int = 50) -> [ArticleContent] {
        let authors = (0..<authorCount).map { Author(name: "Author \($0)") }
        return (0..<count).map { index in
            var article = ArticleContent(item: .init(uniqueID: String(format: "a%06d", index), title: "Article \(index)",
                                                     datePublished: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))),
                                         feedID: "https://feed\(index % feeds).example.com/")
            article.authors = [authors[index % authorCount], authors[(index * 7 + 1) % authorCount]]
            return article
        }
    }

    /// Saves the articles and their feeds and refreshes the unread counts.
    static func store(_ articles: [ArticleContent], in data: RSSDataController) async throws {
        let feeds = Set(articles.map(\.feedID)).map { Feed(uniqueID: $0, title: $0) }
        try data.store.save(feeds)
        try data.store.save(articles)
        try await data.store.flush()
        try await data.reloadUnreadCounts()
    }
}
