import Foundation
import QSData
import Testing

/// Saves write what changed: no statement for an unchanged object the store holds, the changed
/// columns of a changed one, and a row or two of the lookup table for a child added or moved.
@MainActor
@Suite struct ChangeTrackingTests {
    private func episodeOrder(_ store: QSStore, podcast: Int64) async throws -> [Int64] {
        let rows = try await store.fetchRows("SELECT episodeID FROM podcastEpisodes WHERE podcastID = ? ORDER BY ix", [.integer(podcast)])
        return rows.compactMap { if case .integer(let id) = $0.first { id } else { nil } }
    }

    @Test func addingOneChildAnywhereInFiveThousandCostsThreeStatements() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 1, episodes: 5_000, firstID: 100_000)
        try store.save(podcast)
        try await store.flush()
        let hosts = try store.cachedObjects(of: Tag.self).sorted { $0.uniqueID < $1.uniqueID }

        for (offset, position) in [0, 2_500, 5_002, 1, 1].enumerated() {
            let episode = ShowEpisode(uniqueID: 900_000 + Int64(offset), title: "New \(offset)", hosts: [hosts[1], hosts[2]])
            podcast.episodes.insert(episode, at: position)
            let log = try await store.recordStatements { try store.save(podcast) }
            // The episode's row, its two host rows in one statement, one row in the podcast's lookup table.
            #expect(log.count == 3, "\(log)")
            #expect(log.statements.filter { $0.hasPrefix("INSERT OR FAIL INTO \"podcastEpisodes\"") }.count == 1)
            #expect(log.statements.filter { $0.hasPrefix("INSERT OR FAIL INTO \"episodeHosts\"") }.count == 1)
        }
        #expect(try await episodeOrder(store, podcast: 1) == podcast.episodes.ids)
    }

    @Test func savingUnchangedObjectsCostsNothing() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let writer = try await ShowFixtures.openStore(url: url)
        let podcast = ShowFixtures.podcast(id: 2, episodes: 500, firstID: 200_000)
        try writer.save(podcast)
        let saved = try await writer.recordStatements { try writer.save(podcast) }
        #expect(saved.count == 0, "\(saved)")
        try await writer.close()

        // Fetched objects, too: the store remembers what it read.
        let store = try await ShowFixtures.openStore(url: url)
        let fetched = try #require(try await store.fetch(Show.self, id: 2))
        let log = try await store.recordStatements { try store.save(fetched) }
        #expect(log.count == 0, "\(log)")
    }

    @Test func aChangedObjectWritesOnlyItsChangedColumns() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 3, episodes: 100, firstID: 300_000)
        try store.save(podcast)
        let episode = try #require(podcast.episodes.children?[40])
        episode.title = "Renamed"
        let log = try await store.recordStatements { try store.save(podcast) }
        // The episode's row hashes otherwise than its snapshot says: the row is read, and only
        // the column that differs is written.
        #expect(log.statements == [
            rowReadSQL("episodes", ["uniqueID", "duration", "title"]),
            "UPDATE \"episodes\" SET \"title\" = ? WHERE \"uniqueID\" = ?",
        ])
        let write = try store.save(podcast)
        try await write.committed()
        #expect(write.changes.first?.isEmpty == true)
        #expect(try await store.fetchRows("SELECT title FROM episodes WHERE uniqueID = 300040") == [["Renamed"]])
    }

    @Test func aParentWithAChangedColumnStillKnowsItsChildrensRows() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 4, episodes: 100, firstID: 400_000)
        try store.save(podcast)
        podcast.title = "Renamed"
        let renamed = try await store.recordStatements { try store.save(podcast) }
        #expect(renamed.statements == [rowReadSQL("podcasts", ["uniqueID", "title"]), "UPDATE \"podcasts\" SET \"title\" = ? WHERE \"uniqueID\" = ?"], "\(renamed)")

        // The podcast's lookup rows are still known after the rename: adding an episode reads none
        // of them, and writes the episode's row and one lookup row.
        podcast.episodes.insert(ShowEpisode(uniqueID: 499_999, title: "New", hosts: []), at: 50)
        let added = try await store.recordStatements { try store.save(podcast) }
        #expect(added.count == 2, "\(added)")
        #expect(added.statements.filter { $0.hasPrefix("SELECT") }.isEmpty, "\(added)")
        #expect(try await episodeOrder(store, podcast: 4) == podcast.episodes.ids)
        #expect(try await store.fetchRows("SELECT title FROM podcasts WHERE uniqueID = 4") == [["Renamed"]])
    }

    @Test func anObjectListedTwiceInOneSaveIsWrittenOnce() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 6, episodes: 10, firstID: 600_000)
        try store.save(podcast)
        podcast.title = "Renamed twice over"
        // The second listing sees what the first wrote, so it has nothing left to write (nor to read).
        let log = try await store.recordStatements { try store.save([podcast, podcast]) }
        #expect(log.statements == [rowReadSQL("podcasts", ["uniqueID", "title"]), "UPDATE \"podcasts\" SET \"title\" = ? WHERE \"uniqueID\" = ?"], "\(log)")
        #expect(try await store.fetchRows("SELECT title FROM podcasts WHERE uniqueID = 6") == [["Renamed twice over"]])
    }

    @Test func swappingTwoChildrenRewritesTwoRows() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 4, episodes: 5_000, firstID: 400_000)
        try store.save(podcast)
        podcast.episodes.swapAt(10, 4_000)
        let log = try await store.recordStatements { try store.save(podcast) }
        #expect(log.statements == Array(repeating: "UPDATE \"podcastEpisodes\" SET \"ix\" = ? WHERE \"podcastID\" = ? AND \"episodeID\" = ?", count: 2), "\(log)")
        #expect(try await episodeOrder(store, podcast: 4) == podcast.episodes.ids)

        podcast.episodes.remove(at: 3)
        let removal = try await store.recordStatements { try store.save(podcast) }
        #expect(removal.statements == ["DELETE FROM \"podcastEpisodes\" WHERE \"podcastID\" = ? AND \"episodeID\" = ?"])
        #expect(try await episodeOrder(store, podcast: 4) == podcast.episodes.ids)
    }

    @Test func anExhaustedGapRenumbersTheParentOnce() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 5, episodes: 3, firstID: 500_000)
        try store.save(podcast)
        var rewrites = 0
        // Each insert between the first two halves the gap; about twenty fit before it runs out.
        for offset in 0..<30 {
            podcast.episodes.insert(ShowEpisode(uniqueID: 510_000 + Int64(offset), title: "Squeezed"), at: 1)
            let log = try await store.recordStatements { try store.save(podcast) }
            if log.statements.contains("DELETE FROM \"podcastEpisodes\" WHERE \"podcastID\" = ?") {
                // The episode, the delete, and the parent's rows in as many statements as the
                // powers of two of 128 and below their number adds up to.
                rewrites += 1
                #expect(log.count == 2 + podcast.episodes.count.nonzeroBitCount, "\(log)")
            } else {
                // The episode and its lookup row.
                #expect(log.count == 2, "\(log)")
            }
            #expect(try await episodeOrder(store, podcast: 5) == podcast.episodes.ids)
        }
        #expect(rewrites == 1)
    }

    @Test func aRolledBackSaveLeavesTheInstanceAsTheDatabaseAndItsRowCheckedOnce() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 6, episodes: 10, firstID: 600_000)
        try store.save(podcast)
        podcast.title = "Lost in the rollback"
        struct Refused: Error {}
        let failed = try store.save([podcast], alongside: { _ in throw Refused() })
        await #expect(throws: QSWriteError.self) { try await failed.committed() }
        // The rollback puts the instance back to what the database holds and drops the row's
        // snapshot (keeping every snapshot a save replaces, to put back, would cost every save):
        // the next save checks the row and its lookup rows, changing nothing, and knows them again.
        #expect(podcast.title == "Show 6")
        let checked = try await store.recordStatements { try store.save(podcast) }
        #expect(checked.statements == [
            "INSERT INTO \"podcasts\" (\"uniqueID\", \"title\") VALUES (?1, ?2) ON CONFLICT(\"uniqueID\") DO NOTHING",
            "UPDATE \"podcasts\" SET \"title\" = ?2 WHERE \"uniqueID\" = ?1 AND (\"title\" IS NOT ?2)",
            "SELECT \"episodeID\", \"ix\" FROM \"podcastEpisodes\" WHERE \"podcastID\" = ? ORDER BY \"ix\"",
        ], "\(checked)")
        #expect(try await store.fetchRows("SELECT title FROM podcasts WHERE uniqueID = 6") == [["Show 6"]])
        let unchanged = try await store.recordStatements { try store.save(podcast) }
        #expect(unchanged.statements.isEmpty, "\(unchanged)")

        podcast.title = "Kept in memory"
        let retry = try await store.recordStatements { try store.save(podcast) }
        #expect(retry.statements == [rowReadSQL("podcasts", ["uniqueID", "title"]), "UPDATE \"podcasts\" SET \"title\" = ? WHERE \"uniqueID\" = ?"], "\(retry)")
        #expect(try await store.fetchRows("SELECT title FROM podcasts WHERE uniqueID = 6") == [["Kept in memory"]])
    }

    @Test func aDeletedChildSavedAgainIsListedAgainByItsParent() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 9, episodes: 3, firstID: 900_100)
        try store.save(podcast)
        let episode = try #require(try await store.fetch(ShowEpisode.self, id: 900_101))
        try store.delete(ShowEpisode.self, ids: [900_101])
        try await store.flush()
        #expect(try await episodeOrder(store, podcast: 9) == [900_100, 900_102])

        // The delete took the parent's lookup row, so the parent's snapshot no longer says it is there.
        if !podcast.episodes.ids.contains(900_101) { podcast.episodes.insert(episode, at: 1) }
        try store.save(podcast)
        try await store.flush()
        #expect(try await episodeOrder(store, podcast: 9) == [900_100, 900_101, 900_102])
        #expect(try await store.fetchRows("SELECT title FROM episodes WHERE uniqueID = 900101") == [["ShowEpisode 1"]])
    }

    @Test func afterABulkUpdateOrASiblingsSaveTheNextSaveReadsTheRowOnce() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 7, episodes: 3, firstID: 700_000)
        try store.save(podcast)
        let episode = try #require(podcast.episodes.children?.first)
        let readEpisode = rowReadSQL("episodes", ["uniqueID", "duration", "title"])

        // A bulk update changes the row in place: its hash no longer says what the row holds, so
        // the next save reads the row, finds nothing to write, and knows the row again.
        try store.update(ShowEpisode.self, ids: [episode.uniqueID], set: ["title": "Bulk"])
        #expect(episode.title == "Bulk")
        #expect(try await store.recordStatements { try store.save(podcast) }.statements == [readEpisode])
        #expect(try await store.recordStatements { try store.save(podcast) }.count == 0)
        episode.title = "ShowEpisode 0"  // back to the old title, which is no longer stored
        let log = try await store.recordStatements { try store.save(podcast) }
        #expect(log.statements == [readEpisode, "UPDATE \"episodes\" SET \"title\" = ? WHERE \"uniqueID\" = ?"], "\(log)")

        // A save through another type on the table changes the podcast's row behind its snapshot.
        var list = try #require(try await store.fetch(ShowList.self, id: 7))
        list.title = "From the list"
        try store.save(list)
        podcast.title = "Show 7"
        let afterSibling = try await store.recordStatements { try store.save(podcast) }
        #expect(afterSibling.statements == [
            rowReadSQL("podcasts", ["uniqueID", "title"]), "UPDATE \"podcasts\" SET \"title\" = ? WHERE \"uniqueID\" = ?",
        ], "\(afterSibling)")
        #expect(try await store.fetchRows("SELECT title FROM podcasts WHERE uniqueID = 7") == [["Show 7"]])
        #expect(try await store.fetchRows("SELECT title FROM episodes WHERE uniqueID = 700000") == [["ShowEpisode 0"]])
    }

    @Test func valuesTheStoreDoesNotHoldAreCheckedAgainstTheDatabase() async throws {
        let store = try await Fixtures.openStore()
        try store.save(Note(uniqueID: 77, text: "a value"))
        let note = try #require(try await store.fetch(TimelineNote.self, where: "uniqueID = 77").first)
        // TimelineNote is a struct the store does not keep, so it has no snapshot: the save
        // runs an insert that finds the row and an update that finds nothing to change.
        let log = try await store.recordStatements { try store.save(note) }
        #expect(log.count == 2, "\(log)")
        let write = try store.save(note)
        try await write.committed()
        #expect(write.changes.first?.isEmpty == true)
    }
}

/// Random edits to an ordered relationship, saved one by one, always leave the lookup rows in
/// the order the app holds; a seeded generator makes every run the same.
@MainActor
@Suite struct LookupOrderTests {
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 17 ^ state
        }
    }

    @Test(arguments: [1, 2, 3])
    func randomEditsKeepTheStoredOrder(seed: UInt64) async throws {
        var random = SeededGenerator(state: seed)
        let url = Fixtures.temporaryDatabaseURL()
        var store = try await ShowFixtures.openStore(url: url)
        let firstID = 2_000_000 + Int64(seed) * 10_000
        var podcast = ShowFixtures.podcast(id: 1, episodes: 40, firstID: firstID)
        var nextID = firstID + 1_000
        try store.save(podcast)
        for step in 0..<150 {
            let count = podcast.episodes.count
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                podcast.episodes.insert(ShowEpisode(uniqueID: nextID, title: "New"), at: Int.random(in: 0...count, using: &random))
                nextID += 1
            case 2 where count > 1:
                podcast.episodes.remove(at: Int.random(in: 0..<count, using: &random))
            case 3 where count > 1:
                podcast.episodes.swapAt(Int.random(in: 0..<count, using: &random), Int.random(in: 0..<count, using: &random))
            default:
                // A run of inserts at one place exhausts the gap there.
                let position = Int.random(in: 0...count, using: &random)
                for _ in 0..<6 {
                    podcast.episodes.insert(ShowEpisode(uniqueID: nextID, title: "Run"), at: position)
                    nextID += 1
                }
            }
            try store.save(podcast)
            if step % 50 == 49 {
                // A new store has no snapshot: it reads the stored rows and must agree with them.
                try await store.close()
                store = try await ShowFixtures.openStore(url: url)
                let fetched = try #require(try await store.fetch(Show.self, id: 1))
                #expect(fetched.episodes.ids == podcast.episodes.ids)
                podcast = fetched
            }
            let rows = try await store.fetchRows("SELECT episodeID FROM podcastEpisodes WHERE podcastID = 1 ORDER BY ix")
            #expect(rows.map { $0.first } == podcast.episodes.ids.map { .integer($0) }, "step \(step)")
        }
        try await store.close()
    }
}

@MainActor
@Suite struct ChangeTrackingAfterDeleteTests {
    @Test func aHeldObjectSavedAfterADeleteWhereIsInsertedAgain() async throws {
        let store = try await ShowFixtures.openStore()
        let podcast = ShowFixtures.podcast(id: 8, episodes: 2, firstID: 800_000)
        try store.save(podcast)
        try store.delete(Show.self, where: "uniqueID = 8")
        try store.save(podcast)  // enqueued before the delete's cache work reaches the main actor
        try await store.flush()
        #expect(try await store.count(Show.self, where: "uniqueID = 8") == 1)
    }
}
