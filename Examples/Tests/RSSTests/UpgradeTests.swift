import ExampleTestSupport
import Foundation
import QSData
import RSSCore
import Testing

/// A database written by an earlier version of the app opens in this one and loses nothing.
@MainActor
@Suite struct UpgradeTests {
    /// Before articles could be searched the database had the schema SQL and the first migration
    /// (`user_version` 1). Opening it runs the search migration, which indexes the articles it holds.
    @Test func aDatabaseFromBeforeSearchGainsTheIndexAndFindsItsArticles() async throws {
        let folder = try TestFolder(prefix: "rss-upgrade")
        let database = folder.appending("rss.sqlite")
        try writeDatabaseFromBeforeSearch(at: database)

        let data = try await RSSDataController.open(at: database)
        let results = try await data.search("sourdough")
        #expect(results.map(\.article.uniqueID) == ["a1"])
        #expect(try await data.store.fetchRows("PRAGMA user_version") == [[.integer(3)]])
        try await data.close()
    }

    private func writeDatabaseFromBeforeSearch(at url: URL) throws {
        let connection = try SQLiteConnection(path: url.path)
        try connection.executeScript(String(contentsOf: RSSResources.schemaURL, encoding: .utf8))
        let firstMigration = try RSSResources.migrationsURL.appendingPathComponent("1-feed-address-and-validators.sql")
        try connection.executeScript(String(contentsOf: firstMigration, encoding: .utf8))
        try connection.execute("PRAGMA user_version = 1")
        try connection.execute("INSERT INTO feeds (uniqueID, title) VALUES ('https://example.com/feed', 'Bakery')")
        try connection.execute("""
            INSERT INTO articles (uniqueID, feedID, title, summary) VALUES
                ('a1', 'https://example.com/feed', 'Sourdough at home', 'Flour, water, time'),
                ('a2', 'https://example.com/feed', 'Rye', 'Dense and dark')
            """)
    }
}
