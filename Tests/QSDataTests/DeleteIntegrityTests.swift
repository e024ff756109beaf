import Foundation
import QSData
import Testing

/// Deletes leave no dangling lookup rows, apply each relationship's delete rule, and keep the
/// instances in memory true (the podcast library of ``PodcastFixtures``).
@MainActor
@Suite struct DeleteIntegrityTests {
    /// 30 episodes of one podcast, each with two of three hosts; the first host lists two favorites.
    private func library(_ store: QSStore, episodes count: Int = 30) throws -> (Podcast, [Episode], [Host]) {
        let hosts = [Host(uniqueID: "ann"), Host(uniqueID: "bob"), Host(uniqueID: "cy")]
        let episodes = (0..<count).map { Episode(uniqueID: "e\($0)", title: "Episode \($0)", hosts: [hosts[$0 % 3], hosts[($0 + 1) % 3]]) }
        let podcast = Podcast(uniqueID: 1, title: "Show", episodes: episodes)
        try store.save(podcast)
        try store.save(Host(uniqueID: "ann", favorites: [EpisodeSummary(episodes[0]), EpisodeSummary(episodes[1])]))
        return (podcast, episodes, hosts)
    }

    @Test func deletingTheLightTypeRemovesEveryLookupRowThatRefersToTheRows() async throws {
        let store = try await PodcastFixtures.openStore()
        let (podcast, episodes, _) = try library(store)
        try await store.flush()
        var changes: [QSChange] = []
        let observation = store.observeChanges { changes.append($0) }
        let ids = episodes.map(\.uniqueID)

        let log = try await store.recordStatements {
            try store.delete(EpisodeSummary.self, ids: ids)
            try await store.flush()
        }
        // The rows, then one statement per lookup table: as child (podcastEpisodes,
        // hostFavorites) and as parent in the other type's relationship (episodeHosts).
        #expect(log.count == 1 + 3, "\(log)")
        for table in PodcastFixtures.lookupTables {
            #expect(try await PodcastFixtures.count(table, in: store) == 0, "\(table)")
        }
        #expect(podcast.episodes.isEmpty)
        #expect(try await store.fetch(Podcast.self, id: 1)?.episodes.isEmpty == true)
        #expect(changes.count == 1)
        #expect(changes.first?.deletedIDs(of: Episode.self) == Set(ids))
        #expect(changes.first?.deletedIDs(of: EpisodeSummary.self) == Set(ids))
        #expect(changes.first?.updatedIDs(of: Podcast.self) == [1])
        #expect(try await store.checkIntegrity().isClean)
        observation.cancel()
    }

    @Test func aLiveParentDropsADeletedChildAtOnceKeepingTheOrder() async throws {
        let store = try await PodcastFixtures.openStore()
        let (podcast, episodes, _) = try library(store, episodes: 5)
        try store.delete([episodes[1], episodes[3]])
        #expect(podcast.episodes.map(\.uniqueID) == ["e0", "e2", "e4"])
        try await store.flush()
        #expect(try await PodcastFixtures.lookupRows("podcastEpisodes", in: store) == ["1>e0", "1>e2", "1>e4"])
        let host = try #require(try await store.fetch(Host.self, id: "ann"))
        #expect(host.favorites.map(\.uniqueID) == ["e0"])
    }

    @Test func deletingWhereAConditionHoldsPatchesParentsOnceItCommits() async throws {
        let store = try await PodcastFixtures.openStore()
        let (podcast, _, _) = try library(store, episodes: 6)
        try store.update(EpisodeSummary.self, ids: ["e0", "e2", "e4"], set: ["played": true])
        try store.delete(EpisodeSummary.self, where: "played = 1")
        try await store.flush()
        #expect(podcast.episodes.map(\.uniqueID) == ["e1", "e3", "e5"])
        #expect(try await PodcastFixtures.lookupRows("hostFavorites", in: store) == ["ann>e1"])
        #expect(try await PodcastFixtures.count("episodeHosts", in: store) == 6)
        #expect(try await store.checkIntegrity().isClean)
    }

    @Test func deletesInABatchAndThroughDeleteOrphansLeaveNoLookupRows() async throws {
        let store = try await PodcastFixtures.openStore()
        _ = try library(store, episodes: 4)
        try store.performBatch {
            try store.delete(Episode.self, ids: ["e0"])
            try store.delete(Host.self, ids: ["bob"])
        }
        try await store.flush()
        #expect(try await PodcastFixtures.lookupRows("episodeHosts", in: store) == ["e1>cy", "e2>cy", "e2>ann", "e3>ann"])
        // Nothing lists e1 once the podcast and ann's favorites drop it: it is an orphan, and
        // goes with its lookup rows.
        let podcast = try #require(try await store.fetch(Podcast.self, id: 1))
        podcast.episodes.removeFirst()
        try store.save(podcast)
        try store.save(Host(uniqueID: "ann"))
        try await store.deleteOrphans(of: Episode.self)
        try await store.flush()
        #expect(try await store.fetchIDs(Episode.self, orderBy: "uniqueID") == ["e2", "e3"])
        #expect(try await PodcastFixtures.lookupRows("hostFavorites", in: store) == [])
        #expect(try await store.checkIntegrity().isClean)
    }

    @Test func deletingTenThousandChildrenOfTwoParentTypesRunsOneStatementPerTable() async throws {
        let store = try await PodcastFixtures.openStore()
        let episodes = (0..<10_000).map { Episode(uniqueID: "e\($0)", title: "\($0)") }
        try store.save(Podcast(uniqueID: 1, title: "Big", episodes: episodes))
        try store.save(Host(uniqueID: "ann", favorites: episodes.prefix(5_000).map(EpisodeSummary.init)))
        try await store.flush()
        let log = try await store.recordStatements {
            try store.delete(Episode.self, ids: episodes.map(\.uniqueID))
            try await store.flush()
        }
        #expect(log.count == 1 + 3, "\(log)")
        #expect(try await PodcastFixtures.count("podcastEpisodes", in: store) == 0)
        #expect(try await PodcastFixtures.count("hostFavorites", in: store) == 0)
    }

    // MARK: Delete rules

    @Test func cascadeDeletesChildrenNoSurvivingParentListsAndRecurses() async throws {
        let store = try await PodcastFixtures.openStore(rules: .init(episodes: .cascade, hosts: .cascade))
        let shared = Episode(uniqueID: "shared", title: "Crossover", hosts: [Host(uniqueID: "ann"), Host(uniqueID: "bob")])
        let own = Episode(uniqueID: "own", title: "Solo", hosts: [Host(uniqueID: "bob"), Host(uniqueID: "cy")])
        try store.save([Podcast(uniqueID: 1, title: "A", episodes: [own, shared]), Podcast(uniqueID: 2, title: "B", episodes: [shared])])
        try await store.flush()
        var changes: [QSChange] = []
        let observation = store.observeChanges { changes.append($0) }

        try store.delete(Podcast.self, ids: [1])
        try await store.flush()
        #expect(try await store.fetchIDs(Episode.self, orderBy: "uniqueID") == ["shared"])
        // "own" took "cy" with it; "bob" is still a host of "shared".
        #expect(try await store.fetchIDs(Host.self, orderBy: "uniqueID") == ["ann", "bob"])
        #expect(try await PodcastFixtures.lookupRows("episodeHosts", in: store) == ["shared>ann", "shared>bob"])
        #expect(changes.first?.deletedIDs(of: Episode.self) == ["own"])
        #expect(changes.first?.deletedIDs(of: Host.self) == ["cy"])
        #expect(try await store.checkIntegrity().isClean)
        observation.cancel()
    }

    @Test(arguments: [10, 1_000])
    func aCascadeRunsTheSameStatementsWhateverTheNumberOfParents(parents: Int) async throws {
        let store = try await PodcastFixtures.openStore(rules: .init(episodes: .cascade))
        let podcasts = (0..<parents).map { index in
            Podcast(uniqueID: Int64(index), title: "\(index)", episodes: [Episode(uniqueID: "a\(index)", title: "a"), Episode(uniqueID: "b\(index)", title: "b")])
        }
        try store.save(podcasts)
        try await store.flush()
        let log = try await store.recordStatements {
            try store.delete(podcasts)
            try await store.flush()
        }
        // podcasts, the cascade's SELECT, podcastEpisodes; episodes and their three lookup tables.
        #expect(log.count == 7, "\(log)")
        #expect(try await PodcastFixtures.count("episodes", in: store) == 0)
        #expect(try await store.checkIntegrity().isClean)
    }

    @Test func denyThrowsBeforeAnySQLWhenAHeldInstanceHasChildren() async throws {
        let store = try await PodcastFixtures.openStore(rules: .init(episodes: .deny))
        let (podcast, _, _) = try library(store, episodes: 2)
        try await store.flush()
        let log = try await store.recordStatements {
            #expect(throws: QSDataError.deleteDenied(type: "Podcast", relationship: "episodes")) {
                try store.delete([podcast])
            }
        }
        #expect(log.count == 0)
        #expect(try store.cachedObject(of: Podcast.self, id: 1) === podcast)
        podcast.episodes = []
        try store.save(podcast)
        try store.delete([podcast])
        try await store.flush()
        #expect(try await PodcastFixtures.count("podcasts", in: store) == 0)
    }

    @Test func denyFoundOnlyByTheDatabaseRollsTheWholeWriteBack() async throws {
        let store = try await PodcastFixtures.openStore(rules: .init(favorites: .deny))
        _ = try library(store, episodes: 2)
        try await store.flush()
        let write = try store.delete(Host.self, ids: ["ann", "bob"])
        await #expect(throws: QSWriteError.self) { try await write.committed() }
        do {
            try await write.committed()
        } catch let error as QSWriteError {
            #expect(error.underlying as? QSDataError == .deleteDenied(type: "Host", relationship: "favorites"))
        }
        #expect(try await store.fetchIDs(Host.self, orderBy: "uniqueID") == ["ann", "bob", "cy"])
        #expect(try await PodcastFixtures.count("episodeHosts", in: store) == 4)
        try await store.delete(Host.self, ids: ["bob"]).committed()
    }

    @Test func aRolledBackBatchGivesAParentBackTheChildInstanceItDeleted() async throws {
        struct Refused: Error {}
        let store = try await PodcastFixtures.openStore()
        let (podcast, episodes, _) = try library(store, episodes: 2)
        try await store.flush()
        // The parent lets go of a child, the child is deleted, and a later write in the batch
        // fails: everything rolls back. The parent's re-read must find the child instance the
        // delete put aside, not make a second one.
        podcast.episodes = [episodes[1]]
        try store.performBatch {
            try store.save(podcast)
            try store.delete(Episode.self, ids: ["e0"])
            try store.save([Host(uniqueID: "dee")], alongside: { _ in throw Refused() })
        }
        await #expect(throws: QSWriteError.self) { try await store.flush() }
        #expect(podcast.episodes.map(\.uniqueID) == ["e0", "e1"])
        #expect(podcast.episodes[0] === episodes[0])
        #expect(try store.cachedObject(of: Episode.self, id: "e0") === episodes[0])
        #expect(try await store.fetch(Episode.self, id: "e0") === episodes[0])
    }

    @Test func anUnknownDeleteRuleIsAModelError() throws {
        let plist = PodcastFixtures.modelPlist(.init()).replacingOccurrences(
            of: "<key>indexKey</key><string>ix</string>", with: "<key>indexKey</key><string>ix</string><key>deleteRule</key><string>restrict</string>")
        #expect(throws: QSDataError.invalidModel(
            file: "P.plist", type: "Episode", key: "relationships.hosts.deleteRule",
            problem: "unknown rule 'restrict' (known: nullify, cascade, deny)")) {
            try QSDataModel(propertyList: Data(plist.utf8), fileName: "P.plist")
        }
    }
}
