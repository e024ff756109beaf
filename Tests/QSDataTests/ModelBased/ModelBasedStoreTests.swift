import Foundation
import QSData
import Testing

/// A model-based test of the whole store: random operations over four types (two on one
/// table, ordered relationships both ways, a permanently cached class, an immutable value type,
/// a light value type and a uniqued class), each followed by a check that the reference model,
/// the database read back with raw SQL and every instance the store holds agree.
///
/// A failing seed records the operations up to the failure; running the same seed replays them
/// (`QSDATA_MODEL_SEEDS=3 swift test --filter ModelBasedStoreTests` runs seed 3 alone).
@MainActor
@Suite struct ModelBasedStoreTests {
    static let operationsPerSeed = 2_500

    nonisolated static let seeds: [UInt64] = ProcessInfo.processInfo.environment["QSDATA_MODEL_SEEDS"]
        .map { $0.split(separator: ",").compactMap { UInt64($0) } } ?? [1, 2, 3, 2_026]

    @Test(arguments: seeds)
    func randomOperationsKeepDatabaseCachesAndObjectsInAgreement(seed: UInt64) async throws {
        let run = try await ModelBasedRun(seed: seed)
        try await run.run(operations: Self.operationsPerSeed)
    }
}

@MainActor
final class ModelBasedRun {
    static let rules = PodcastFixtures.Rules(episodes: .cascade, hosts: .nullify, favorites: .deny)

    private struct RolledBack: Error {}

    let seed: UInt64
    private var rng: SeededGenerator
    private let url = Fixtures.temporaryDatabaseURL()
    private var store: QSStore
    private var reference = ReferenceStore()
    /// Episodes the test keeps alive between operations, so that uniquing is exercised both
    /// with instances held and with instances released.
    private var held: [Episode] = []
    private var log: [String] = []
    /// New episodes made for the operation being prepared, so that an ID listed twice (or in
    /// two steps of a batch) is one instance, as an app would have it.
    private var made: [String: Episode] = [:]

    init(seed: UInt64) async throws {
        self.seed = seed
        rng = SeededGenerator(seed: seed)
        store = try await PodcastFixtures.openStore(url: url, rules: Self.rules)
    }

    func run(operations count: Int) async throws {
        for step in 1...count {
            let operation = StoreOperation.random(using: &rng, reference: reference)
            log.append("\(step). \(operation)")
            if ProcessInfo.processInfo.environment["QSDATA_MODEL_TRACE"] != nil { FileHandle.standardError.write(Data((log[log.count - 1] + "\n").utf8)) }
            let problems = try await perform(operation) + (try await check(fully: step % 10 == 0))
            if !problems.isEmpty {
                Issue.record("""
                    seed \(seed) failed at step \(step) (replay: run this seed again):
                    \(problems.map { "  ✗ \($0)" }.joined(separator: "\n"))
                    operations:
                    \(log.joined(separator: "\n"))
                    """)
                return
            }
            if Int.random(in: 0..<4, using: &rng) == 0, !held.isEmpty { held.removeFirst() }
        }
        try await store.close()
    }

    // MARK: Running an operation

    /// Reads every type while a background write may still be running: on reader connections,
    /// from the last committed state. The instances they make must agree with the database once
    /// the write has committed, as the check after the operation asserts.
    private func readWhileTheBackgroundWriteRuns() async throws {
        _ = try await store.fetchAll(Podcast.self)
        _ = try await store.fetchAll(Episode.self)
        _ = try await store.fetchAll(Host.self)
        _ = try await store.count(EpisodeSummary.self)
    }

    /// Runs the operation, simulates it on a copy of the reference, and checks that the store
    /// failed exactly when the simulation refused.
    private func perform(_ operation: StoreOperation) async throws -> [String] {
        switch operation {
        case .reopen:
            try await store.close()
            held = []
            store = try await PodcastFixtures.openStore(url: url, rules: Self.rules)
            return []
        case .rawSQL(let write, let throughStore):
            return try await performRawSQL(write, throughStore: throughStore)
        case .failThenClose(let podcast, let title):
            return try await failThenClose(podcast: podcast, title: title)
        default:
            break
        }
        made = [:]
        let steps = try await prepare(operation)
        let inBackground = Bool.random(using: &rng) && ProcessInfo.processInfo.environment["QSDATA_NO_BACKGROUND"] == nil
        var next = reference
        var refused: (any Error)?
        var failure: (any Error)?
        do {
            let body = {
                for step in steps {
                    if refused == nil {
                        do { try step.simulate(&next) } catch { refused = error }
                    }
                    try step.run(self.store)
                }
            }
            if operation.runsInOneTransaction, inBackground {
                try store.performInBackground(body)
            } else if operation.runsInOneTransaction {
                try store.performBatch(body)
            } else {
                try body()
            }
        } catch {
            failure = error
        }
        if inBackground { try await readWhileTheBackgroundWriteRuns() }
        do { try await store.flush() } catch { failure = failure ?? error }
        switch (refused, failure) {
        case (nil, nil):
            reference = next
            return []
        case (.some, .some):
            return []
        case (nil, .some(let failure)):
            return ["the store failed but the model expected success: \(failure)"]
        case (.some(let refusal), nil):
            return ["the store succeeded but the model expected \(refusal)"]
        }
    }

    /// Runs SQL the store did not write, and simulates it: the store must take it in.
    private func performRawSQL(_ write: RawWrite, throughStore: Bool) async throws -> [String] {
        try write.simulate(&reference)
        if throughStore {
            for statement in write.statements { try await store.execute(statement.sql, statement.arguments) }
        } else {
            let other = try SQLiteConnection(path: url.path)
            try other.execute("PRAGMA busy_timeout = 10000")
            try other.transaction {
                for statement in write.statements { try other.execute(statement.sql, statement.arguments) }
            }
        }
        return []
    }

    /// A save that fails, not awaited, then `close()`: close reports the failure, and is closed
    /// all the same.
    private func failThenClose(podcast id: Int64, title: String) async throws -> [String] {
        var problems: [String] = []
        if let podcast = try store.cachedObject(of: Podcast.self, id: id) {
            podcast.title = title
            try store.save([podcast], alongside: { _ in throw RolledBack() })
            do {
                try await store.close()
                problems.append("close() after a failed save did not report the failure")
            } catch {}
        } else {
            try await store.close()
        }
        if !store.isClosed { problems.append("the store is not closed after close()") }
        held = []
        store = try await PodcastFixtures.openStore(url: url, rules: Self.rules)
        return problems
    }

    private struct Step {
        let simulate: (inout ReferenceStore) throws -> Void
        let run: (QSStore) throws -> Void
    }

    private func prepare(_ operation: StoreOperation) async throws -> [Step] {
        switch operation {
        case .savePodcast(let id, let title, let episodeIDs):
            let podcast = try store.cachedObject(of: Podcast.self, id: id) ?? Podcast(uniqueID: id, title: title)
            let episodes = try await episodes(episodeIDs)
            return [Step(simulate: { _ in }, run: { _ in
                podcast.title = title
                podcast.episodes = episodes
            }), save([podcast])]
        case .saveEpisodes(let edits):
            let episodes = try await self.episodes(edits.map(\.id))
            var hosts: [[Host]] = []
            for edit in edits { hosts.append(try await self.hosts(edit.hosts)) }
            return [Step(simulate: { _ in }, run: { _ in
                for (index, edit) in edits.enumerated() {
                    episodes[index].title = edit.title
                    episodes[index].played = edit.played
                    episodes[index].hosts = hosts[index]
                }
            }), save(largeWhenThree(Array(uniqued(episodes))))]
        case .saveSummaries(let edits):
            let summaries = edits.map { EpisodeSummary(uniqueID: $0.id, title: $0.title, played: $0.played) }
            return [Step(simulate: { reference in for summary in summaries { try reference.saveSummary(summary) } },
                         run: { store in try store.save(summaries) })]
        case .saveHost(let id, let favoriteIDs):
            var host = try await hosts([id])[0]
            host.favorites = []
            for favorite in favoriteIDs {
                host.favorites.append(try await store.fetch(EpisodeSummary.self, id: favorite) ?? EpisodeSummary(uniqueID: favorite, title: "new"))
            }
            return [save([host])]
        case .setPlayed(let ids, let played, let throughSummary):
            return [Step(simulate: { $0.setPlayed(played, episodes: ids) }, run: { store in
                if throughSummary {
                    try store.update(EpisodeSummary.self, ids: ids, set: ["played": played])
                } else {
                    try store.update(Episode.self, ids: ids, set: ["played": played])
                }
            })]
        case .renamePodcasts(let ids, let title):
            return [Step(simulate: { $0.setTitle(title, podcasts: ids.map(String.init)) },
                         run: { store in try store.update(Podcast.self, ids: ids, set: ["title": title]) })]
        case .renameEpisodesWherePlayed(let played, let title):
            return [Step(simulate: { $0.setTitle(title, episodesWherePlayed: played) }, run: { store in
                try store.update(EpisodeSummary.self, where: "played = ?", arguments: [.integer(played ? 1 : 0)], set: ["title": title])
            })]
        case .deleteByIDs(let table, let ids, let throughSummary):
            return [Step(simulate: { try $0.delete(table, ids: Set(ids)) }, run: { store in
                switch table {
                case .podcasts: try store.delete(Podcast.self, ids: ids.compactMap { Int64($0) })
                case .episodes where throughSummary: try store.delete(EpisodeSummary.self, ids: ids)
                case .episodes: try store.delete(Episode.self, ids: ids)
                case .hosts: try store.delete(Host.self, ids: ids)
                }
            })]
        case .deleteObjects(let table, let ids):
            return [try await deleteObjects(table, ids: ids)]
        case .deleteWhere(let table, let condition):
            return [Step(simulate: { reference in
                let ids: [String] = switch table {
                case .podcasts: reference.podcasts.keys.filter { Int64($0)! % 2 == 0 }
                case .hosts: reference.hosts.keys.filter { $0 > "h3" }
                case .episodes where condition == "played = 1": reference.episodes.filter(\.value.played).map(\.key)
                case .episodes: reference.episodes.filter { $0.value.title < "t3" }.map(\.key)
                }
                try reference.delete(table, ids: Set(ids))
            }, run: { store in
                switch table {
                case .podcasts: try store.delete(Podcast.self, where: condition)
                case .hosts: try store.delete(Host.self, where: condition)
                case .episodes: try store.delete(EpisodeSummary.self, where: condition)
                }
            })]
        case .saveStaleCopies(let episodeID, let hostID, let title):
            // The copies the parents will hold, taken before the newer saves.
            guard let staleSummary = try await store.fetch(EpisodeSummary.self, id: episodeID) else { return [] }
            let staleHost = try await hosts([hostID])[0]
            let episode = try await episodes([episodeID])[0]
            let newerSummary = EpisodeSummary(uniqueID: episodeID, title: title, played: !staleSummary.played)
            let hostHoldingStaleSummary = Host(uniqueID: hostID, name: staleHost.name, favorites: [staleSummary])
            return [
                Step(simulate: { try $0.saveSummary(newerSummary) }, run: { store in try store.save(newerSummary) }),
                save([hostHoldingStaleSummary]),
                Step(simulate: { _ in }, run: { _ in episode.hosts = episode.hosts.filter { $0.uniqueID != hostID } + [staleHost] }),
                save([episode]),
            ]
        case .failingSave(let id, let title):
            guard let podcast = try store.cachedObject(of: Podcast.self, id: id) else { return [] }
            return [Step(simulate: { _ in throw RolledBack() }, run: { store in
                podcast.title = title
                podcast.episodes.reverse()
                try store.save([podcast], alongside: { _ in throw RolledBack() })
            })]
        case .batch(let operations):
            var steps: [Step] = []
            for operation in operations { steps += try await prepare(operation) }
            return steps
        case .reopen, .rawSQL, .failThenClose:
            return []
        }
    }

    /// Three distinct objects are saved listed over and over, past the size a save encodes in one
    /// main-actor turn: the save's write then takes its chunks as they are encoded, while the
    /// operations after it are handed over.
    private func largeWhenThree<Object>(_ objects: [Object]) -> [Object] {
        guard objects.count == 3 else { return objects }
        return Array(repeatElement(objects, count: 1_200 / objects.count).joined())
    }

    private func save<Object: QSDataObject>(_ objects: [Object]) -> Step {
        Step(simulate: { reference in
            var walk = ReferenceStore.SaveWalk()
            walk.meet(Object.modelName)
            for object in objects {
                switch object {
                case let podcast as Podcast: walk.podcast(podcast)
                case let episode as Episode: walk.episode(episode)
                case let host as Host: walk.host(host, throughParent: false)
                default: Issue.record("no simulation for \(Object.self)")
                }
            }
            try walk.apply(to: &reference)
        }, run: { store in try store.save(objects) })
    }

    private func deleteObjects(_ table: ReferenceStore.Table, ids: [String]) async throws -> Step {
        switch table {
        case .podcasts:
            let podcasts = try ids.compactMap { try store.cachedObject(of: Podcast.self, id: Int64($0)!) }
            return Step(simulate: { try $0.delete(.podcasts, ids: Set(podcasts.map { String($0.uniqueID) })) },
                        run: { store in try store.delete(podcasts) })
        case .episodes:
            let episodes = try await store.fetch(Episode.self, ids: ids)
            return Step(simulate: { try $0.delete(.episodes, ids: Set(episodes.map(\.uniqueID))) },
                        run: { store in try store.delete(episodes) })
        case .hosts:
            let hosts = try await store.fetch(Host.self, ids: ids)
            return Step(simulate: { reference in
                // Values in hand that list favorites are refused before any SQL.
                if let listing = hosts.first(where: { !$0.favorites.isEmpty }) { throw ReferenceStore.Refusal.denied(listing.uniqueID) }
                try reference.delete(.hosts, ids: Set(hosts.map(\.uniqueID)))
            }, run: { store in try store.delete(hosts) })
        }
    }

    // MARK: Instances for IDs

    /// The live instance when the store holds one, else the stored one, else a new one.
    private func episodes(_ ids: [String]) async throws -> [Episode] {
        var episodes: [Episode] = []
        for id in ids {
            if let live = try store.cachedObject(of: Episode.self, id: id) ?? made[id] {
                episodes.append(live)
            } else if let stored = try await store.fetch(Episode.self, id: id) {
                episodes.append(stored)
            } else {
                let episode = Episode(uniqueID: id, title: "new \(id)", audioURL: "https://example.com/\(id).mp3")
                made[id] = episode
                episodes.append(episode)
            }
            if Bool.random(using: &rng), held.count < 8 { held.append(episodes[episodes.count - 1]) }
        }
        return episodes
    }

    private func hosts(_ ids: [String]) async throws -> [Host] {
        var hosts: [Host] = []
        for id in ids {
            hosts.append(try await store.fetch(Host.self, id: id) ?? Host(uniqueID: id))
        }
        return hosts
    }

    private func uniqued(_ episodes: [Episode]) -> [Episode] {
        var seen: Set<String> = []
        return episodes.filter { seen.insert($0.uniqueID).inserted }
    }

    // MARK: Checking

    /// Every disagreement between the reference, the database and the instances in memory.
    private func check(fully: Bool) async throws -> [String] {
        var problems = try await ModelBasedCheck(store: store, reference: reference).problems(fetchingValues: fully)
        for episode in held where try store.cachedObject(of: Episode.self, id: episode.uniqueID) === episode {
            if reference.episodes[episode.uniqueID] == nil { problems.append("held Episode \(episode.uniqueID) is cached but has no row") }
        }
        return problems
    }
}
