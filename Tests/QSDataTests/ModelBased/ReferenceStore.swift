/// The model-based test's idea of what the database holds, updated by simulating each
/// operation with the rules QSData documents — written independently of the store's code.
struct ReferenceStore: Equatable {
    enum Table: String, CaseIterable, Sendable {
        case podcasts, episodes, hosts
    }

    enum Lookup: String, CaseIterable, Sendable {
        case podcastEpisodes, episodeHosts, hostFavorites

        var parentTable: Table { self == .podcastEpisodes ? .podcasts : self == .episodeHosts ? .episodes : .hosts }
        var childTable: Table { self == .episodeHosts ? .hosts : .episodes }
    }

    struct EpisodeRow: Equatable {
        var title: String
        var played: Bool
        var audioURL: String
    }

    /// Why a simulated operation fails (and the store's write must fail too).
    enum Refusal: Error, Equatable {
        case denied(String)
        case missingRequiredColumn(String)
    }

    var podcasts: [String: String] = [:]
    var episodes: [String: EpisodeRow] = [:]
    var hosts: [String: String] = [:]
    /// Children per parent, in order; a parent without children has no entry.
    var lookups: [Lookup: [String: [String]]] = [:]

    func ids(_ table: Table) -> Set<String> {
        switch table {
        case .podcasts: Set(podcasts.keys)
        case .episodes: Set(episodes.keys)
        case .hosts: Set(hosts.keys)
        }
    }

    func children(_ lookup: Lookup, of parent: String) -> [String] {
        lookups[lookup]?[parent] ?? []
    }

    // MARK: Saving

    /// What a save is asked to write: rows with, per relationship the object sets, its children.
    /// Children are written once per save, the first time they are met, like the store does.
    struct SaveWalk {
        var claimed: Set<String> = []

        mutating func claim(_ table: Table, _ id: String) -> Bool {
            claimed.insert("\(table.rawValue)/\(id)").inserted
        }
    }

    mutating func savePodcast(_ podcast: Podcast, walk: inout SaveWalk) {
        let id = String(podcast.uniqueID)
        podcasts[id] = podcast.title
        setChildren(.podcastEpisodes, of: id, podcast.episodes.map(\.uniqueID))
        for episode in podcast.episodes where walk.claim(.episodes, episode.uniqueID) {
            saveEpisode(episode, walk: &walk)
        }
    }

    mutating func saveEpisode(_ episode: Episode, walk: inout SaveWalk) {
        episodes[episode.uniqueID] = EpisodeRow(title: episode.title, played: episode.played, audioURL: episode.audioURL)
        setChildren(.episodeHosts, of: episode.uniqueID, episode.hosts.map(\.uniqueID))
        for host in episode.hosts where walk.claim(.hosts, host.uniqueID) {
            saveHost(host, walk: &walk)
        }
    }

    /// Hosts are immutable: an existing row keeps its columns; the relationship is still written.
    mutating func saveHost(_ host: Host, walk: inout SaveWalk) {
        if hosts[host.uniqueID] == nil { hosts[host.uniqueID] = host.name }
        setChildren(.hostFavorites, of: host.uniqueID, host.favorites.map(\.uniqueID))
        for episode in host.favorites where walk.claim(.episodes, episode.uniqueID) {
            saveEpisode(episode, walk: &walk)
        }
    }

    /// The light type updates the row it finds; it can't insert one (no audioURL).
    mutating func saveSummary(_ summary: EpisodeSummary) throws(Refusal) {
        guard var row = episodes[summary.uniqueID] else { throw .missingRequiredColumn("audioURL") }
        row.title = summary.title
        row.played = summary.played
        episodes[summary.uniqueID] = row
    }

    private mutating func setChildren(_ lookup: Lookup, of parent: String, _ children: [String]) {
        var kept: [String] = []
        for child in children where !kept.contains(child) { kept.append(child) }
        lookups[lookup, default: [:]][parent] = kept.isEmpty ? nil : kept
    }

    // MARK: Updating

    mutating func setPlayed(_ played: Bool, episodes ids: some Sequence<String>) {
        for id in ids where episodes[id] != nil { episodes[id]?.played = played }
    }

    mutating func setTitle(_ title: String, episodesWherePlayed played: Bool) {
        for (id, row) in episodes where row.played == played { episodes[id]?.title = title }
    }

    mutating func setTitle(_ title: String, podcasts ids: some Sequence<String>) {
        for id in ids where podcasts[id] != nil { podcasts[id] = title }
    }

    // MARK: Deleting

    /// Deletes rows with their lookup rows, under the rules: podcasts' episodes cascade,
    /// episodes' hosts nullify, hosts' favorites deny.
    mutating func delete(_ table: Table, ids requested: Set<String>) throws(Refusal) {
        let deleted = requested.intersection(ids(table))
        guard !deleted.isEmpty else { return }
        if table == .hosts, let host = deleted.sorted().first(where: { !children(.hostFavorites, of: $0).isEmpty }) {
            throw .denied(host)
        }
        for id in deleted {
            switch table {
            case .podcasts: podcasts[id] = nil
            case .episodes: episodes[id] = nil
            case .hosts: hosts[id] = nil
            }
        }
        var cascaded: Set<String> = []
        if table == .podcasts {
            let listed = Set(deleted.flatMap { children(.podcastEpisodes, of: $0) })
            let stillListed = Set(podcasts.keys.flatMap { children(.podcastEpisodes, of: $0) })
            cascaded = listed.subtracting(stillListed)
        }
        for lookup in Lookup.allCases {
            if lookup.parentTable == table {
                for id in deleted { lookups[lookup]?[id] = nil }
            }
            if lookup.childTable == table {
                for (parent, list) in lookups[lookup] ?? [:] {
                    let kept = list.filter { !deleted.contains($0) }
                    lookups[lookup]?[parent] = kept.isEmpty ? nil : kept
                }
            }
        }
        if !cascaded.isEmpty { try delete(.episodes, ids: cascaded) }
    }
}
