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

    /// What a save is asked to write, in the order the store writes it: type by type, in the
    /// order the types are first met. Each child is written once per save (the first time it is
    /// met). In this model each type sits at one depth, so a type's rows come in the same order
    /// whether the walk goes depth first, as here, or a level at a time, as the store does.
    /// A child of a value type (hosts, episode summaries) reached through a parent is a copy that
    /// may be older than its row: it is inserted when its row is missing, and never written over
    /// a row that exists.
    struct SaveWalk {
        private var claimed: Set<String> = []
        private var typeOrder: [String] = []
        private var writes: [String: [(inout ReferenceStore) throws(Refusal) -> Void]] = [:]

        mutating func claim(_ type: String, _ id: String) -> Bool {
            claimed.insert("\(type)/\(id)").inserted
        }

        /// Notes that a type is met, which fixes when its rows are written.
        mutating func meet(_ type: String) {
            if writes[type] == nil {
                writes[type] = []
                typeOrder.append(type)
            }
        }

        mutating func add(_ type: String, _ write: @escaping (inout ReferenceStore) throws(Refusal) -> Void) {
            meet(type)
            writes[type, default: []].append(write)
        }

        func apply(to reference: inout ReferenceStore) throws(Refusal) {
            for type in typeOrder {
                for write in writes[type] ?? [] { try write(&reference) }
            }
        }

        mutating func podcast(_ podcast: Podcast) {
            meet("Episode")
            for episode in podcast.episodes where claim("Episode", episode.uniqueID) {
                self.episode(episode)
            }
            let id = String(podcast.uniqueID), title = podcast.title, episodes = podcast.episodes.map(\.uniqueID)
            add("Podcast") { reference throws(Refusal) in
                reference.podcasts[id] = title
                reference.setChildren(.podcastEpisodes, of: id, episodes)
            }
        }

        mutating func episode(_ episode: Episode) {
            meet("Host")
            for host in episode.hosts where claim("Host", host.uniqueID) {
                self.host(host, throughParent: true)
            }
            let id = episode.uniqueID, hosts = episode.hosts.map(\.uniqueID)
            let row = EpisodeRow(title: episode.title, played: episode.played, audioURL: episode.audioURL)
            add("Episode") { reference throws(Refusal) in
                reference.episodes[id] = row
                reference.setChildren(.episodeHosts, of: id, hosts)
            }
        }

        /// Hosts are immutable: an existing row keeps its columns. A host saved itself still has
        /// its relationship written; one reached through an episode writes nothing to an
        /// existing row, relationship included.
        mutating func host(_ host: Host, throughParent: Bool) {
            meet("EpisodeSummary")
            for summary in host.favorites where claim("EpisodeSummary", summary.uniqueID) {
                add("EpisodeSummary") { reference throws(Refusal) in try reference.insertSummaryIfMissing(summary) }
            }
            let id = host.uniqueID, name = host.name, favorites = host.favorites.map(\.uniqueID)
            add("Host") { reference throws(Refusal) in
                if throughParent, reference.hosts[id] != nil { return }
                if reference.hosts[id] == nil { reference.hosts[id] = name }
                reference.setChildren(.hostFavorites, of: id, favorites)
            }
        }
    }

    /// The light type updates the row it finds; it can't insert one (no audioURL).
    mutating func saveSummary(_ summary: EpisodeSummary) throws(Refusal) {
        guard var row = episodes[summary.uniqueID] else { throw .missingRequiredColumn("audioURL") }
        row.title = summary.title
        row.played = summary.played
        episodes[summary.uniqueID] = row
    }

    /// A summary reached through a host: the light type can't insert a missing row, and an
    /// existing one keeps what it holds.
    mutating func insertSummaryIfMissing(_ summary: EpisodeSummary) throws(Refusal) {
        guard episodes[summary.uniqueID] != nil else { throw .missingRequiredColumn("audioURL") }
    }

    fileprivate mutating func setChildren(_ lookup: Lookup, of parent: String, _ children: [String]) {
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
