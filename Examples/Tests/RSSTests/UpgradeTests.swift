import ExampleTestSupport
import Foundation
import QSData
import RSSCore
import Testing

/// A database written by an earlier version of the app opens in this one and loses nothing.
@MainActor
@Suite struct UpgradeTests {
    /// The `user_version` of a database this version creates or upgrades.
    static let currentVersion: Int64 = 4

    /// Before articles could be searched the database had the schema SQL and the first migration
    /// (`user_version` 1). Opening it runs the search migration, which indexes the articles it holds.
    @Test func aDatabaseFromBeforeSearchGainsTheIndexAndFindsItsArticles() async throws {
        let folder = try TestFolder(prefix: "rss-upgrade")
        let database = folder.appending("rss.sqlite")
        try Self.writeDatabase(at: database, version: 1, rows: """
            INSERT INTO feeds (uniqueID, title) VALUES ('https://example.com/feed', 'Bakery');
            INSERT INTO articles (uniqueID, feedID, title, summary) VALUES
                ('a1', 'https://example.com/feed', 'Sourdough at home', 'Flour, water, time'),
                ('a2', 'https://example.com/feed', 'Rye', 'Dense and dark');
            """)

        let data = try await RSSDataController.open(at: database)
        let results = try await data.search("sourdough")
        #expect(results.map(\.article.uniqueID) == ["a1"])
        #expect(try await data.store.fetchRows("PRAGMA user_version") == [[.integer(Self.currentVersion)]])
        try await data.close()
    }

    /// Writes a database as the app of schema `version` left it: the schema SQL and the first
    /// `version` migrations, then `rows`.
    static func writeDatabase(at url: URL, version: Int, rows: String) throws {
        let connection = try SQLiteConnection(path: url.path)
        try connection.executeScript(String(contentsOf: RSSResources.schemaURL, encoding: .utf8))
        let migrations = try FileManager.default.contentsOfDirectory(at: RSSResources.migrationsURL, includingPropertiesForKeys: nil)
            .filter { Int($0.lastPathComponent.prefix { $0.isNumber }).map { $0 <= version } ?? false }
            .sorted { $0.lastPathComponent.localizedStandardCompare($1.lastPathComponent) == .orderedAscending }
        #expect(migrations.count == version)
        for migration in migrations {
            try connection.executeScript(String(contentsOf: migration, encoding: .utf8))
        }
        try connection.execute("PRAGMA user_version = \(version)")
        try connection.executeScript(rows)
    }
}
