import QSData

/// Compares the reference model with the database (read back with raw SQL) and with every
/// instance the store holds.
@MainActor
struct ModelBasedCheck {
    let store: QSStore
    let reference: ReferenceStore

    func problems(fetchingValues: Bool) async throws -> [String] {
        var problems = try await databaseProblems()
        problems += try cacheProblems()
        if fetchingValues { problems += try await fetchedValueProblems() }
        return problems
    }

    private func databaseProblems() async throws -> [String] {
        var problems: [String] = []
        let podcasts = try await rows("SELECT uniqueID, title FROM podcasts")
        expect(podcasts, reference.podcasts.mapValues { [$0] }, "podcasts", into: &problems)
        let episodes = try await rows("SELECT uniqueID, title, played, audioURL FROM episodes")
        expect(episodes, reference.episodes.mapValues { [$0.title, $0.played ? "1" : "0", $0.audioURL] }, "episodes", into: &problems)
        let hosts = try await rows("SELECT uniqueID, name FROM hosts")
        expect(hosts, reference.hosts.mapValues { [$0] }, "hosts", into: &problems)
        for lookup in ReferenceStore.Lookup.allCases {
            let stored = try await store.fetchRows("SELECT * FROM \(lookup.rawValue) ORDER BY 1, ix")
            var lists: [String: [String]] = [:]
            for row in stored {
                lists[row[0].plain, default: []].append(row[1].plain)
            }
            if lists != reference.lookups[lookup] ?? [:] {
                problems.append("\(lookup.rawValue): database \(lists.sorted { $0.key < $1.key }) but model \((reference.lookups[lookup] ?? [:]).sorted { $0.key < $1.key })")
            }
        }
        return problems
    }

    private func cacheProblems() throws -> [String] {
        var problems: [String] = []
        let podcasts = try store.cachedObjects(of: Podcast.self)
        if Set(podcasts.map { String($0.uniqueID) }) != Set(reference.podcasts.keys) {
            problems.append("cached podcasts \(podcasts.map(\.uniqueID).sorted()) but model \(reference.podcasts.keys.sorted())")
        }
        for podcast in podcasts {
            let id = String(podcast.uniqueID)
            if let title = reference.podcasts[id], podcast.title != title {
                problems.append("cached Podcast \(id) has title '\(podcast.title)', model '\(title)'")
            }
            let listed = firstOccurrences(podcast.episodes.map(\.uniqueID))
            if listed != reference.children(.podcastEpisodes, of: id) {
                problems.append("cached Podcast \(id) lists \(listed), model \(reference.children(.podcastEpisodes, of: id))")
            }
            for episode in podcast.episodes where try store.cachedObject(of: Episode.self, id: episode.uniqueID) !== episode {
                problems.append("cached Podcast \(id) lists an Episode \(episode.uniqueID) that is not the store's instance")
            }
        }
        for episode in try store.cachedObjects(of: Episode.self) {
            guard let row = reference.episodes[episode.uniqueID] else {
                problems.append("Episode \(episode.uniqueID) is cached but the model has no such row")
                continue
            }
            let held = ReferenceStore.EpisodeRow(title: episode.title, played: episode.played, audioURL: episode.audioURL)
            if held != row { problems.append("live Episode \(episode.uniqueID) holds \(held), model \(row)") }
            let hosts = firstOccurrences(episode.hosts.map(\.uniqueID))
            if hosts != reference.children(.episodeHosts, of: episode.uniqueID) {
                problems.append("live Episode \(episode.uniqueID) lists hosts \(hosts), model \(reference.children(.episodeHosts, of: episode.uniqueID))")
            }
        }
        return problems
    }

    /// Value types fetched afresh list what the database holds.
    private func fetchedValueProblems() async throws -> [String] {
        var problems: [String] = []
        let summaries = try await store.fetchAll(EpisodeSummary.self)
        let fetched = Dictionary(uniqueKeysWithValues: summaries.map { ($0.uniqueID, [$0.title, $0.played ? "1" : "0"]) })
        if fetched != reference.episodes.mapValues({ [$0.title, $0.played ? "1" : "0"] }) {
            problems.append("fetched EpisodeSummaries \(fetched) disagree with the model")
        }
        for host in try await store.fetchAll(Host.self) where host.favorites.map(\.uniqueID) != reference.children(.hostFavorites, of: host.uniqueID) {
            problems.append("fetched Host \(host.uniqueID) lists favorites \(host.favorites.map(\.uniqueID)), model \(reference.children(.hostFavorites, of: host.uniqueID))")
        }
        let report = try await store.checkIntegrity()
        if !report.isClean { problems.append("integrity check: \(report)") }
        return problems
    }

    private func rows(_ sql: String) async throws -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for row in try await store.fetchRows(sql) {
            rows[row[0].plain] = row.dropFirst().map(\.plain)
        }
        return rows
    }

    private func expect(_ stored: [String: [String]], _ model: [String: [String]], _ table: String, into problems: inout [String]) {
        guard stored != model else { return }
        let keys = Set(stored.keys).union(model.keys).sorted().filter { stored[$0] != model[$0] }
        problems.append("\(table): " + keys.map { "\($0) database \(stored[$0] ?? []) model \(model[$0] ?? [])" }.joined(separator: "; "))
    }

    private func firstOccurrences(_ ids: [String]) -> [String] {
        var kept: [String] = []
        for id in ids where !kept.contains(id) { kept.append(id) }
        return kept
    }
}
