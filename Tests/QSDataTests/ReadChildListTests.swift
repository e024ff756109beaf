import Foundation
import QSData
import Testing

/// A relationship read from the store names each child once, so a save of it does not look for
/// repeats; a child the app then adds again still keeps only its first position, whichever way
/// the relationship was loaded and however long the list.
@MainActor
@Suite struct ReadChildListTests {
    /// Show 1 with `count` episodes (IDs from 1), saved, then read back by a store opened anew.
    private func readShow(episodes count: Int, loading: QSLoading) async throws -> (QSStore, Show) {
        let url = Fixtures.temporaryDatabaseURL()
        let writer = try await ShowFixtures.openStore(url: url, episodes: loading)
        try await writer.save(ShowFixtures.podcast(id: 1, episodes: count, firstID: 1)).committed()
        try await writer.close()
        let store = try await ShowFixtures.openStore(url: url, episodes: loading)
        let show = try #require(try await store.fetch(Show.self, id: 1))
        return (store, show)
    }

    @Test(arguments: [QSLoading.eager, .lazy])
    func aChildAddedAgainToAReadListKeepsItsFirstPosition(loading: QSLoading) async throws {
        let (store, show) = try await readShow(episodes: 5, loading: loading)
        #expect(show.episodes.isLoaded == (loading == .eager))
        let third = try #require(try await store.fetchChildren(show.episodes).first { $0.uniqueID == 3 })

        // Added again at the front: its first position is now there, so the save moves it.
        show.episodes.insert(third, at: 0)
        try await store.save(show).committed()
        #expect(try await ShowFixtures.storedEpisodeOrder(of: 1, in: store) == [3, 1, 2, 4, 5])

        // Added again at the end: its first position is still the front, so nothing changes.
        show.episodes.append(third)
        let log = try await store.recordStatements { try store.save(show) }
        #expect(ShowFixtures.lookupWrites(log) == [])
        #expect(try await ShowFixtures.storedEpisodeOrder(of: 1, in: store) == [3, 1, 2, 4, 5])
        try await store.close()
    }

    @Test func aRepeatAddedToAReadListLongerThanAnInsertSearchesIsStillFound() async throws {
        let count = 4_100
        let (store, show) = try await readShow(episodes: count, loading: .lazy)
        let last = try #require(try await store.fetch(ShowEpisode.self, id: Int64(count)))
        show.episodes.insert(last, at: 0)
        try await store.save(show).committed()
        #expect(try await ShowFixtures.storedEpisodeOrder(of: 1, in: store) == [Int64(count)] + (1 ..< Int64(count)).map { $0 })
        try await store.close()
    }

    /// Each round reads the show again (a list read from the store), edits it with a few seeded
    /// inserts, appends, removals and swaps, some of them adding a child it lists already, saves
    /// it, and compares the stored order with the list's first occurrences.
    @Test(arguments: [QSLoading.eager, .lazy])
    func seededEditsOfAReadListWithRepeatsStoreEachChildOnceInItsFirstPlace(loading: QSLoading) async throws {
        let (store, _) = try await readShow(episodes: 20, loading: loading)
        try await store.save((101 ... 106).map { ShowEpisode(uniqueID: $0, title: "spare \($0)") }).committed()
        let episodes = try await store.fetchAll(ShowEpisode.self)
        var generator = SeededGenerator(seed: 0xD157_1AC7)
        for round in 0 ..< 40 {
            let show = try #require(try await store.fetch(Show.self, id: 1))
            for _ in 0 ... generator.next() % 3 {
                let count = show.episodes.count
                let position = Int(generator.next() % UInt64(count + 1))
                let child = episodes[Int(generator.next() % UInt64(episodes.count))]
                switch generator.next() % 4 {
                case 0: show.episodes.insert(child, at: position)
                case 1: show.episodes.append(child)
                case 2 where count > 1: show.episodes.remove(at: min(position, count - 1))
                case 3 where count > 1: show.episodes.swapAt(min(position, count - 1), Int(generator.next() % UInt64(count)))
                default: show.episodes.append(child)
                }
            }
            var seen: Set<Int64> = []
            let expected = show.episodes.ids.filter { seen.insert($0).inserted }
            try await store.save(show).committed()
            #expect(try await ShowFixtures.storedEpisodeOrder(of: 1, in: store) == expected, "round \(round)")
        }
        try await store.close()
    }

    @Test func aReadListEqualsTheSameListMadeByTheApp() async throws {
        let (store, show) = try await readShow(episodes: 3, loading: .lazy)
        #expect(show.episodes == QSRelated<ShowEpisode>(ids: [1, 2, 3]))
        #expect(show.episodes != QSRelated<ShowEpisode>(ids: [1, 3, 2]))
        try await store.close()
    }
}

/// The same episode instance: what a `QSRelated<ShowEpisode>` compares its children by here.
extension ShowEpisode: Equatable {
    static func == (lhs: ShowEpisode, rhs: ShowEpisode) -> Bool { lhs === rhs }
}
