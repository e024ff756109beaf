import Foundation
import QSData
import Testing

/// A parent of hundreds of children with integer IDs, edited near its ends, in its middle, and
/// across the blocks its unchanged ends are compared in: the stored order always matches the
/// app's, and an edit writes only the rows it changed.
@MainActor
@Suite struct LongChildListTests {
    /// A store holding show `id` with `count` episodes, and `spares` more episodes saved beside it.
    private func storeWithShow(id: Int64, episodes count: Int, spares: Int) async throws -> (QSStore, Show, [ShowEpisode]) {
        let store = try await ShowFixtures.openStore()
        let show = ShowFixtures.podcast(id: id, episodes: count, firstID: 1)
        try store.save(show)
        let spare = (0 ..< spares).map { ShowEpisode(uniqueID: 10_000 + Int64($0), title: "spare \($0)") }
        try store.save(spare)
        try await store.flush()
        return (store, show, spare)
    }

    @Test func oneChildAddedAtEitherEndOrInsideWritesOneRow() async throws {
        let (store, show, extra) = try await storeWithShow(id: 1, episodes: 300, spares: 3)

        // At the end, at the start, and at position 100, past three whole blocks of 32.
        for (episode, position) in zip(extra, [300, 0, 100]) {
            show.episodes.insert(episode, at: position)
            let log = try await store.recordStatements { try store.save(show) }
            #expect(ShowFixtures.lookupWrites(log).count == 1, "\(log)")
            #expect(try await ShowFixtures.storedEpisodeOrder(of: 1, in: store) == show.episodes.ids)
        }
    }

    @Test func aRunAddedInOnePlaceOrRemovedFromOneWritesOnlyThoseRows() async throws {
        let (store, show, extra) = try await storeWithShow(id: 3, episodes: 300, spares: 8)
        let orderValues = "SELECT episodeID, ix FROM podcastEpisodes WHERE podcastID = 3"
        let before = try await store.fetchRows(orderValues)

        // Eight children added together at position 150: one statement of eight rows, and
        // every row already there keeps its order value.
        var episodes = try #require(show.episodes.children)
        episodes.insert(contentsOf: extra, at: 150)
        show.episodes = QSRelated(episodes)
        var log = try await store.recordStatements { try store.save(show) }
        #expect(ShowFixtures.lookupWrites(log).count == 1, "\(log)")
        #expect(ShowFixtures.lookupWrites(log).allSatisfy { $0.hasPrefix("INSERT OR FAIL") })
        #expect(try await ShowFixtures.storedEpisodeOrder(of: 3, in: store) == episodes.map(\.uniqueID))
        let afterAdding = try await store.fetchRows(orderValues)
        #expect(Set(afterAdding).isSuperset(of: before))

        // The same eight and the two after them removed together: one delete, nothing moved.
        episodes.removeSubrange(150 ..< 160)
        show.episodes = QSRelated(episodes)
        log = try await store.recordStatements { try store.save(show) }
        #expect(ShowFixtures.lookupWrites(log).count == 1, "\(log)")
        #expect(ShowFixtures.lookupWrites(log).allSatisfy { $0.hasPrefix("DELETE") })
        #expect(try await ShowFixtures.storedEpisodeOrder(of: 3, in: store) == episodes.map(\.uniqueID))
        #expect(try await store.fetchRows(orderValues).count == 298)
    }

    @Test func seededEditsKeepTheStoredOrder() async throws {
        let (store, show, spares) = try await storeWithShow(id: 2, episodes: 200, spares: 400)
        var spare = spares

        var generator = SeededGenerator(seed: 0x5EED)
        for round in 0 ..< 60 {
            var episodes = try #require(show.episodes.children)
            let position = Int(generator.next() % UInt64(episodes.count + 1))
            switch generator.next() % 4 {
            case 0 where !spare.isEmpty: episodes.insert(spare.removeLast(), at: position)
            case 1 where !episodes.isEmpty: episodes.remove(at: min(position, episodes.count - 1))
            case 2 where episodes.count > 1:
                let moved = episodes.remove(at: min(position, episodes.count - 1))
                episodes.insert(moved, at: Int(generator.next() % UInt64(episodes.count + 1)))
            default: episodes.append(contentsOf: spare.suffix(2)); spare.removeLast(min(2, spare.count))
            }
            show.episodes = QSRelated(episodes)
            try store.save(show)
            #expect(try await ShowFixtures.storedEpisodeOrder(of: 2, in: store) == episodes.map(\.uniqueID), "round \(round)")
        }
    }
}
