import Foundation
import QSData
import RSSCore
import Testing

@MainActor
@Suite struct DataModelTests {
    @Test(arguments: ["RSS.plist", "RSS.sql", "RSSMigrations/1-feed-address-and-validators.sql", "RSSMigrations/2-full-text-search.sql",
                     "RSSMigrations/3-feed-addresses-and-host-pauses.sql"])
    func bundledModelFilesAreIdenticalToTheCanonicalCopies(name: String) throws {
        let canonical = try Data(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("DataModels/\(name)"))
        let bundledURL = switch name {
        case "RSS.plist": try RSSResources.modelURL
        case "RSS.sql": try RSSResources.schemaURL
        default: try RSSResources.migrationsURL.deletingLastPathComponent().appendingPathComponent(name)
        }
        let bundled = try Data(contentsOf: bundledURL)
        #expect(bundled == canonical, "Examples/RSS/RSSCore/Resources/\(name) differs from DataModels/\(name): copy it again")
    }

    @Test func theBundledMigrationsAreExactlyTheCanonicalOnes() throws {
        let canonical = try FileManager.default.contentsOfDirectory(
            atPath: TestSupport.repositoryRoot.appendingPathComponent("DataModels/RSSMigrations").path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: RSSResources.migrationsURL.path).sorted() == canonical)
    }

    private func queryPlan(_ sql: String, _ arguments: [SQLValue], in store: QSStore) async throws -> String {
        let rows = try await store.fetchRows("EXPLAIN QUERY PLAN " + sql, arguments)
        return rows.compactMap { row in row.last.flatMap { if case .text(let text) = $0 { text } else { nil } } }.joined(separator: " | ")
    }

    @Test func unreadCountsUseThePartialUnreadIndex() async throws {
        try await TestSupport.withData { (data, _) async throws in
            let plan = try await queryPlan(RSSDataController.unreadCountsSQL, [], in: data.store)
            #expect(plan.contains("USING COVERING INDEX articlesUnreadIndex"), "\(plan)")
            #expect(!plan.contains("SCAN articles\n") && !plan.hasSuffix("SCAN articles"))
        }
    }

    @Test func perFeedListsUseTheFeedIndex() async throws {
        try await TestSupport.withData { (data, _) async throws in
            let plan = try await queryPlan(RSSDataController.perFeedListSQL, ["https://example.com/feed"], in: data.store)
            #expect(plan.contains("USING INDEX articlesFeedDateIndex (feedID=?)"), "\(plan)")
        }
    }

    @Test func unreadListsOfAFeedUseAnIndex() async throws {
        try await TestSupport.withData { (data, _) async throws in
            let sql = "SELECT uniqueID FROM articles WHERE feedID = ? AND read = 0 ORDER BY datePublished DESC"
            let plan = try await queryPlan(sql, ["https://example.com/feed"], in: data.store)
            #expect(plan.contains("INDEX articlesUnreadIndex (feedID=?)") || plan.contains("INDEX articlesFeedDateIndex (feedID=?)"), "\(plan)")
        }
    }

    @Test func authorLookupsByArticleUseTheArticleIndex() async throws {
        try await TestSupport.withData { (data, _) async throws in
            let plan = try await queryPlan("SELECT authorID FROM authorsArticlesLookup WHERE articleID = ? ORDER BY ix", ["x"], in: data.store)
            #expect(plan.contains("authorsArticlesLookupArticleIndex (articleID=?)"), "\(plan)")
        }
    }
}
