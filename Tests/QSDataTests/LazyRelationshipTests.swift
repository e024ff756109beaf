import Foundation
import QSData
import Testing

/// Relationships loaded lazily hold their children's IDs; the children come on demand.
@MainActor
@Suite struct LazyRelationshipTests {
    private func savedStore(_ url: URL, podcast: Int64, firstEpisode: Int64, episodes: Int = 100) async throws {
        let writer = try await ShowFixtures.openStore(url: url)
        try writer.save(ShowFixtures.podcast(id: podcast, episodes: episodes, firstID: firstEpisode))
        try await writer.close()
    }

    private func episodeIDs(_ first: Int64, _ count: Int) -> [String] {
        (0..<Int64(count)).map { String(first + $0) }
    }

    @Test func aLazyRelationshipLoadsOnlyIDsAndFetchesChildrenInOneStatement() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try await savedStore(url, podcast: 1, firstEpisode: 1_100_000)
        let store = try await ShowFixtures.openStore(url: url, episodes: .lazy)

        var podcast: Show?
        let fetch = try await store.recordStatements { podcast = try await store.fetch(Show.self, id: 1) }
        #expect(fetch.count == 2, "\(fetch)")  // the lookup rows, the podcast
        let episodes = try #require(podcast).episodes
        #expect(!episodes.isLoaded)
        #expect(episodes.ids == (0..<100).map { 1_100_000 + $0 })
        #expect(ShowEpisode.materialisations.count(episodeIDs(1_100_000, 100)) == 0)

        var children: [ShowEpisode] = []
        let load = try await store.recordStatements { children = try await store.fetchChildren(episodes) }
        // The episodes in one statement, and their hosts' lookup rows (the hosts are cached).
        #expect(load.count == 2, "\(load)")
        #expect(children.map(\.uniqueID) == episodes.ids)
        #expect(children[3].hosts.map(\.uniqueID) == ["host-3", "host-6"])

        var again: [ShowEpisode] = []
        let cached = try await store.recordStatements { again = try await store.fetchChildren(episodes) }
        #expect(cached.count == 0)  // uniqued and alive: from the cache
        #expect(zip(again, children).allSatisfy { $0 === $1 })
    }

    @Test func aFetchCanChooseTheLoadingOfEachRelationship() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try await savedStore(url, podcast: 2, firstEpisode: 1_200_000)
        let store = try await ShowFixtures.openStore(url: url, episodes: .eager)

        var lazy: [Show] = []
        let lazyLog = try await store.recordStatements {
            lazy = try await store.fetch(Show.self, where: "uniqueID = ?", arguments: [2], loading: ["episodes": .lazy])
        }
        #expect(lazyLog.count == 2, "\(lazyLog)")
        #expect(lazy.first?.episodes.isLoaded == false)
        lazy = []

        var eager: [Show] = []
        let eagerLog = try await store.recordStatements { eager = try await store.fetchAll(Show.self) }
        // ShowEpisode lookup rows, host lookup rows, episodes, podcasts (hosts are cached).
        #expect(eagerLog.count == 4, "\(eagerLog)")
        #expect(eager.first?.episodes.children?.count == 100)
    }

    @Test func readingALazyRelationshipAsAnArrayIsATypedError() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try await savedStore(url, podcast: 3, firstEpisode: 1_300_000, episodes: 2)
        let store = try await ShowFixtures.openStore(url: url)
        await #expect(throws: QSDataError.relationshipNotLoaded(type: "ShowEpisode", relationship: "hosts")) {
            _ = try await store.fetchAll(ShowEpisode.self, loading: ["hosts": .lazy])
        }
    }

    @Test func aPermanentlyCachedParentPinsItsSubtreeOnlyWhenEager() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try await savedStore(url, podcast: 4, firstEpisode: 1_400_000)

        let lazy = try await ShowFixtures.openStore(url: url, episodes: .lazy, podcastCached: true)
        #expect(try lazy.cachedObjectCount(of: Show.self) == 1)
        #expect(try lazy.cachedObjectCount(of: ShowEpisode.self) == 0)
        #expect(ShowEpisode.materialisations.count(episodeIDs(1_400_000, 100)) == 0)
        try await lazy.close()

        let eager = try await ShowFixtures.openStore(url: url, episodes: .eager, podcastCached: true)
        #expect(try eager.cachedObjectCount(of: ShowEpisode.self) == 100)
        try await eager.close()
    }

    @Test func savingALazyParentWritesOnlyTheChildrenAddedToIt() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try await savedStore(url, podcast: 5, firstEpisode: 1_500_000)
        let store = try await ShowFixtures.openStore(url: url, episodes: .lazy)
        let podcast = try #require(try await store.fetch(Show.self, id: 5))

        podcast.episodes.insert(ShowEpisode(uniqueID: 1_599_999, title: "Fresh"), at: 50)
        let log = try await store.recordStatements { try store.save(podcast) }
        #expect(log.count == 2, "\(log)")  // the episode, its lookup row
        let stored = try await store.fetchRows("SELECT episodeID FROM podcastEpisodes WHERE podcastID = 5 ORDER BY ix")
        #expect(stored.map { $0.first } == podcast.episodes.ids.map { .integer($0) })
        #expect(ShowEpisode.materialisations.count(episodeIDs(1_500_000, 100)) == 0)
    }

    @Test func aChildListedTwiceAmongManyKeepsItsFirstPlace() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try await savedStore(url, podcast: 6, firstEpisode: 1_600_000, episodes: 20)
        let store = try await ShowFixtures.openStore(url: url, episodes: .lazy)
        let podcast = try #require(try await store.fetch(Show.self, id: 6))

        // Added at the front, then again at the end: one lookup row, at the front.
        let fresh = ShowEpisode(uniqueID: 1_699_999, title: "Fresh")
        podcast.episodes.insert(fresh, at: 0)
        podcast.episodes.append(fresh)
        let log = try await store.recordStatements { try store.save(podcast) }
        #expect(log.count == 2, "\(log)")  // the episode, its lookup row
        let stored = try await store.fetchRows("SELECT episodeID FROM podcastEpisodes WHERE podcastID = 6 ORDER BY ix")
        let expected = [1_699_999] + (0..<20).map { 1_600_000 + Int64($0) }
        #expect(stored.map { $0.first } == expected.map { .integer($0) })
        // Saved again unchanged, with the repeat still listed: nothing to write.
        let again = try await store.recordStatements { try store.save(podcast) }
        #expect(again.count == 0, "\(again)")
    }

    /// Integer children's IDs are kept as integers; a lookup row naming a child by text (written
    /// by SQL outside the store) is read, left out of the typed IDs, and removed on the next save.
    @Test func aLookupRowNamingAChildByTextIsRemovedWhenItsParentIsSaved() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        try await savedStore(url, podcast: 7, firstEpisode: 1_700_000, episodes: 20)
        let store = try await ShowFixtures.openStore(url: url, episodes: .lazy)
        _ = try await store.writeAndWait { connection in
            try connection.execute("INSERT INTO podcastEpisodes (episodeID, podcastID, ix) VALUES ('stray', 7, 1099511627776)")
        }
        let podcast = try #require(try await store.fetch(Show.self, id: 7))
        let stored = (0..<20).map { 1_700_000 + Int64($0) }
        #expect(podcast.episodes.ids == stored)

        podcast.episodes.insert(ShowEpisode(uniqueID: 1_799_999, title: "Fresh"), at: 0)
        let log = try await store.recordStatements { try store.save(podcast) }
        #expect(log.count == 3, "\(log)")  // the episode, its lookup row, the stray row's removal
        let rows = try await store.fetchRows("SELECT episodeID FROM podcastEpisodes WHERE podcastID = 7 ORDER BY ix")
        #expect(rows.map { $0.first } == ([1_799_999] + stored).map { .integer($0) })
        let again = try await store.recordStatements { try store.save(podcast) }
        #expect(again.count == 0, "\(again)")
    }
}
