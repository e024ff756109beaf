import DeadlineHTTP
import Foundation
import QSData
import RSSCore
import Testing

/// Feeds served gzip- or deflate-compressed, and a small compressed body that would inflate past
/// the size limit.
@MainActor
@Suite struct CompressionTests {
    /// A route answering 200 with `document` compressed as `encoding`.
    static func compressed(_ document: String, as encoding: String) throws -> FixtureFeedServer.Route {
        .response(status: 200, headers: ["Content-Encoding": encoding, "Content-Type": "application/rss+xml"],
                  body: try CompressedBody.encode(Array(document.utf8), as: encoding))
    }

    @Test func gzipAndDeflateFeedsImportAndRefreshAndEveryRequestAsksForThem() async throws {
        try await RefreshTests().withServer { server, data, _ in
            let gzipped = TestSupport.rss(items: RefreshTests.items("g", 0..<3))
            let deflated = TestSupport.rss(items: RefreshTests.items("d", 0..<2))
            server.set("gzip.xml", try Self.compressed(gzipped, as: "gzip"))
            server.set("deflate.xml", try Self.compressed(deflated, as: "deflate"))

            let imported = await FeedImporter(data: data).importFeeds(from: [.remote(server.url("gzip.xml")), .remote(server.url("deflate.xml"))])
            #expect(imported.failures == [])
            #expect(imported.feeds == 2)
            #expect(imported.newArticles == 5)
            #expect(try await data.store.count(Article.self, where: "feedID = ?", arguments: [.text(server.url("gzip.xml").absoluteString)]) == 3)

            let refreshed = await FeedRefresher(data: data).refresh()
            #expect(refreshed.failures == [])
            #expect(refreshed.fetched == 2)
            #expect(refreshed.articles == StoredArticles(unchanged: 5))
            #expect(refreshed.requests == 2)
            #expect(server.requests.count == 4)
            for request in server.requests {
                let accepted = Set((request.acceptEncoding ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(accepted.isSuperset(of: ["gzip", "deflate"]), "\(request)")
            }
        }
    }

    @Test func aGzipBombIsRefusedAsTooLargeAndTheOtherFeedsImport() async throws {
        try await RefreshTests().withServer { server, data, _ in
            let limit = 100_000
            // A feed whose description is two megabytes of spaces: a few kilobytes compressed.
            let inflated = TestSupport.rss(items: [TestSupport.Item(guid: "big", title: "Big", body: String(repeating: " ", count: 2_000_000))])
            let bomb = try CompressedBody.encode(Array(inflated.utf8), as: "gzip")
            #expect(bomb.count < limit / 10)
            server.set("bomb.xml", .response(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb))
            server.set("plain.xml", RefreshTests.route(RefreshTests.items("p", 0..<2)))

            let importer = FeedImporter(data: data, loader: FeedLoader(maximumBytes: limit))
            let summary = await importer.importFeeds(from: [.remote(server.url("bomb.xml")), .remote(server.url("plain.xml"))])
            #expect(summary.failures == [ImportFailure(source: server.url("bomb.xml").absoluteString, reason: "too large (more than 100000 bytes)")])
            #expect(summary.feeds == 1)
            #expect(summary.newArticles == 2)
            #expect(try await data.store.count(Feed.self) == 1)
        }
    }

    @Test func theHTTPClientThrowsTheTypedTooLargeErrorForABodyThatInflatesPastItsLimit() async throws {
        let bomb = try CompressedBody.encode([UInt8](repeating: 0x20, count: 1_000_000), as: "gzip")
        let server = try await FixtureFeedServer.start()
        server.set("bomb", .response(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb))
        let client = DeadlineHTTPClient(deadlines: HTTPDeadlines(total: .seconds(30)), maximumBytes: 50_000)
        await #expect(throws: HTTPTransferError.tooLarge(limit: 50_000)) {
            try await client.send(DeadlineHTTPRequest(url: server.url("bomb")))
        }
        try await server.shutdown()
    }
}
