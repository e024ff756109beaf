import Foundation
import QSData
import Testing

/// Saves through any type on a shared table, failed writes, and the types the schema declares.
@MainActor
@Suite struct SaveIntegrityTests {
    private struct Refused: Error {}

    // MARK: Several types on one table

    @Test func savingTheLightTypeOfAnExistingRowUpdatesOnlyItsColumns() async throws {
        let store = try await PodcastFixtures.openStore()
        let episode = Episode(uniqueID: "pilot", title: "Pilot", audioURL: "https://example.com/pilot.mp3", hosts: [Host(uniqueID: "ann")])
        try store.save(episode)
        try await store.flush()
        var summary = try #require(try await store.fetch(EpisodeSummary.self, id: "pilot"))
        summary.title = "The Pilot"
        let log = try await store.recordStatements {
            try store.save(summary)
            try await store.flush()
        }
        #expect(log.count == 1, "\(log)")
        #expect(log.statements.first?.hasPrefix("UPDATE") == true)
        #expect(episode.title == "The Pilot")
        let rows = try await store.fetchRows("SELECT title, audioURL FROM episodes")
        #expect(rows == [["The Pilot", "https://example.com/pilot.mp3"]])
        #expect(try await PodcastFixtures.lookupRows("episodeHosts", in: store) == ["pilot>ann"])
    }

    @Test func aNewObjectOfATypeWithoutARequiredColumnIsRefusedNamingTheColumn() async throws {
        let store = try await PodcastFixtures.openStore()
        var failure: (any Error)?
        let log = try await store.recordStatements {
            let write = try store.save(EpisodeSummary(uniqueID: "new", title: "New"))
            do { try await write.committed() } catch { failure = error }
        }
        let error = try #require(failure as? QSWriteError)
        #expect(error.underlying as? QSDataError == .missingRequiredColumn(type: "EpisodeSummary", column: "audioURL"))
        // The UPDATE finds no row and one SELECT confirms there is none: no INSERT is tried.
        #expect(log.count == 2, "\(log)")
        #expect(!log.statements.contains { $0.hasPrefix("INSERT") })
        #expect(try await PodcastFixtures.count("episodes", in: store) == 0)
    }

    @Test func aTypeWhoseMissingColumnsHaveDefaultsInserts() async throws {
        let store = try await Fixtures.openStore()
        let log = try await store.recordStatements {
            try store.save(TimelineNote(uniqueID: 77, text: "light"))
            try await store.flush()
        }
        #expect(log.count == 1, "\(log)")
        #expect(try await store.fetchRows("SELECT text, links FROM notes") == [["light", .null]])
    }

    // MARK: Memory follows the database

    /// A save through the light type patches the uniqued instance's snapshot; a save of that
    /// instance later in the same transaction replaces the patched snapshot. Rolled back, the
    /// row's snapshot must not be the patched one, or the next save of the value takes it as
    /// written already.
    @Test func aRolledBackBatchLeavesNoPatchedSnapshotBehindALaterSave() async throws {
        let store = try await PodcastFixtures.openStore()
        let episode = Episode(uniqueID: "pilot", title: "Pilot", played: true)
        try store.save(episode)
        let batch = try store.performBatch {
            try store.save(EpisodeSummary(uniqueID: "pilot", title: "Pilot", played: false))
            episode.hosts = [Host(uniqueID: "ann")]
            try store.save(episode)
            try store.write { _ in throw Refused() }
        }
        await #expect(throws: QSWriteError.self) { try await batch.committed() }
        try await store.flush()
        #expect(episode.played == true)

        episode.played = false
        try store.save(episode)
        try await store.flush()
        #expect(try await store.fetchRows("SELECT played FROM episodes") == [[.integer(0)]])
    }

    @Test func aRolledBackSaveBringsChangedInstancesBackAndTellsObservers() async throws {
        let store = try await PodcastFixtures.openStore()
        let episode = Episode(uniqueID: "pilot", title: "Pilot")
        let podcast = Podcast(uniqueID: 1, title: "Show", episodes: [episode])
        try store.save(podcast)
        try await store.flush()
        var changes: [QSChange] = []
        let observation = store.observeChanges { changes.append($0) }

        podcast.title = "Renamed"
        podcast.episodes = []
        episode.title = "Changed"
        let write = try store.save([podcast], alongside: { _ in throw Refused() })
        #expect(podcast.title == "Renamed")
        await #expect(throws: QSWriteError.self) { try await write.committed() }
        #expect(podcast.title == "Show")
        #expect(podcast.episodes.map(\.uniqueID) == ["pilot"])
        #expect(podcast.episodes.first === episode)
        #expect(changes.count == 1)
        #expect(changes.first?.updatedIDs(of: Podcast.self) == [1])
        observation.cancel()
    }

    @Test func aRolledBackSaveOfTheLightTypeRestoresThePatchedFullInstance() async throws {
        let store = try await PodcastFixtures.openStore()
        let episode = Episode(uniqueID: "pilot", title: "Pilot")
        try store.save(episode)
        try await store.flush()
        let write = try store.save([EpisodeSummary(uniqueID: "pilot", title: "Oops")], alongside: { _ in throw Refused() })
        #expect(episode.title == "Oops")
        await #expect(throws: QSWriteError.self) { try await write.committed() }
        #expect(episode.title == "Pilot")
    }

    @Test func aRolledBackNewObjectIsForgotten() async throws {
        let store = try await PodcastFixtures.openStore()
        let write = try store.save([Podcast(uniqueID: 5, title: "Never")], alongside: { _ in throw Refused() })
        #expect(try store.cachedObject(of: Podcast.self, id: 5) != nil)
        await #expect(throws: QSWriteError.self) { try await write.committed() }
        #expect(try store.cachedObject(of: Podcast.self, id: 5) == nil)
    }

    @Test func aRolledBackUpdateAndDeleteBringInstancesBack() async throws {
        let store = try await PodcastFixtures.openStore()
        let episodes = [Episode(uniqueID: "a", title: "A"), Episode(uniqueID: "b", title: "B")]
        let podcast = Podcast(uniqueID: 1, title: "Show", episodes: episodes)
        try store.save(podcast)
        try await store.flush()

        let update = try store.performBatch {
            try store.update(Episode.self, ids: ["a"], set: ["played": true])
            try store.write { _ in throw Refused() }
        }
        #expect(episodes[0].played)
        await #expect(throws: QSWriteError.self) { try await update.committed() }
        #expect(!episodes[0].played)

        let delete = try store.delete(Episode.self, ids: ["a"], alongside: { _, _ in throw Refused() })
        #expect(podcast.episodes.map(\.uniqueID) == ["b"])
        await #expect(throws: QSWriteError.self) { try await delete.committed() }
        #expect(podcast.episodes.map(\.uniqueID) == ["a", "b"])
        #expect(try store.cachedObject(of: Episode.self, id: "a") === episodes[0])
        #expect(podcast.episodes.first === episodes[0])
    }

    @Test func aBatchWhoseBodyThrowsBringsChangedInstancesBack() async throws {
        let store = try await PodcastFixtures.openStore()
        let podcast = Podcast(uniqueID: 1, title: "Show", episodes: [Episode(uniqueID: "a", title: "A")])
        try store.save(podcast)
        try await store.flush()
        var changes: [QSChange] = []
        let observation = store.observeChanges { changes.append($0) }
        #expect(throws: Refused.self) {
            try store.performBatch {
                podcast.title = "Renamed"
                try store.save(podcast)
                try store.save(Podcast(uniqueID: 2, title: "New"))
                try store.delete(Episode.self, ids: ["a"])
                throw Refused()
            }
        }
        #expect(podcast.episodes.isEmpty)
        try await store.flush()
        #expect(podcast.title == "Show")
        #expect(podcast.episodes.map(\.uniqueID) == ["a"])
        #expect(try store.cachedObject(of: Podcast.self, id: 2) == nil)
        // One change per write that was put back: the two saves, and the delete that made
        // podcast 1 drop its episode.
        #expect(changes.map { $0.updatedIDs(of: Podcast.self) } == [[1], [2], [1]])
        observation.cancel()
    }

    // MARK: Types

    @Test func aPropertyTypeTheColumnCantKeepIsASchemaMismatch() async throws {
        let plist = PodcastFixtures.modelPlist(.init()).replacingOccurrences(
            of: "<key>title</key><string>string</string>", with: "<key>title</key><string>int64</string>")
        let model = try QSDataModel(propertyList: Data(plist.utf8), fileName: "P.plist")
        await #expect(throws: QSDataError.schemaMismatch([
            "Episode.title: the model says int64 but column 'title' of 'episodes' is declared 'TEXT' (TEXT affinity)",
            "EpisodeSummary.title: the model says int64 but column 'title' of 'episodes' is declared 'TEXT' (TEXT affinity)",
            "Podcast.title: the model says int64 but column 'title' of 'podcasts' is declared 'TEXT' (TEXT affinity)",
        ])) {
            _ = try await QSStore.open(
                at: Fixtures.temporaryDatabaseURL(), model: model, schema: QSSchema(creationSQL: PodcastFixtures.schemaSQL), types: [])
        }
    }

    @Test func aValueOfTheWrongStorageClassThrowsInsteadOfReadingAsZero() async throws {
        let store = try await PodcastFixtures.openStore()
        try await store.execute("INSERT INTO episodes (uniqueID, title, played, audioURL) VALUES ('x', 'X', 'Pilot', 'u')")
        await #expect(throws: QSDataError.valueConversion(type: "EpisodeSummary", column: "played", expected: "Int64", found: "the text 'Pilot'")) {
            _ = try await store.fetchAll(EpisodeSummary.self)
        }
        try await store.execute("UPDATE episodes SET played = 0, title = x'00' WHERE uniqueID = 'x'")
        await #expect(throws: QSDataError.valueConversion(type: "EpisodeSummary", column: "title", expected: "String", found: "a blob of 1 bytes")) {
            _ = try await store.fetchAll(EpisodeSummary.self)
        }
    }

    // MARK: Integrity check

    @Test func theIntegrityCheckReportsDanglingLookupRows() async throws {
        let store = try await PodcastFixtures.openStore()
        try store.save(Podcast(uniqueID: 1, title: "Show", episodes: [Episode(uniqueID: "a", title: "A")]))
        #expect(try await store.checkIntegrity().isClean)
        try await store.execute("INSERT INTO podcastEpisodes VALUES (1, 'gone', 1), (2, 'a', 0), (3, 'nowhere', 0)")
        let report = try await store.checkIntegrity()
        #expect(report.danglingLookupRows == [
            .init(lookupTable: "podcastEpisodes", relationships: ["Podcast.episodes"], missingParents: 2, missingChildren: 2)
        ])
        #expect(report.integrityProblems.isEmpty)
        #expect(!report.isClean)
    }
}

extension TimelineNote {
    init(uniqueID: Int64, text: String) {
        self.uniqueID = uniqueID
        self.text = text
        self.archived = false
        self.sortDate = Fixtures.referenceDate
    }
}
