import QSData

/// One random operation of the model-based test, as data: printed for a failing seed and
/// run again by replaying the seed.
enum StoreOperation: CustomStringConvertible {
    /// Saves a podcast (new or held) with this title and these episodes, duplicates included.
    case savePodcast(id: Int64, title: String, episodes: [String])
    /// Saves episodes (new or held) with new titles, played flags and hosts.
    case saveEpisodes([(id: String, title: String, played: Bool, hosts: [String])])
    /// Saves the light type: an existing row is updated, a new one is refused.
    case saveSummaries([(id: String, title: String, played: Bool)])
    /// Saves a host with its favorite episodes.
    case saveHost(id: String, favorites: [String])
    case setPlayed(ids: [String], played: Bool, throughSummary: Bool)
    case renamePodcasts(ids: [Int64], title: String)
    case renameEpisodesWherePlayed(Bool, title: String)
    case deleteByIDs(ReferenceStore.Table, ids: [String], throughSummary: Bool)
    case deleteObjects(ReferenceStore.Table, ids: [String])
    case deleteWhere(ReferenceStore.Table, condition: String)
    /// Saves an episode's summary with newer values, then a host holding an older copy of that
    /// summary, then the episode holding an older copy of the host: the parents' saves must
    /// leave the newer rows as they are.
    case saveStaleCopies(episode: String, host: String, title: String)
    /// Saves a renamed podcast with app SQL alongside that fails, so the write rolls back.
    case failingSave(podcast: Int64, title: String)
    case batch([StoreOperation])
    case reopen
    /// SQL written on a connection of the test's own, as another process would, or through the
    /// store's `execute`.
    case rawSQL(RawWrite, throughStore: Bool)
    /// A save that fails, not awaited, then `close()`: it reports the failure and still closes;
    /// the store is opened again.
    case failThenClose(podcast: Int64, title: String)

    var description: String {
        switch self {
        case .savePodcast(let id, let title, let episodes): "save Podcast \(id) '\(title)' episodes \(episodes)"
        case .saveEpisodes(let edits): "save Episodes " + edits.map { "\($0.id) '\($0.title)' played=\($0.played) hosts \($0.hosts)" }.joined(separator: "; ")
        case .saveSummaries(let edits): "save EpisodeSummaries " + edits.map { "\($0.id) '\($0.title)' played=\($0.played)" }.joined(separator: "; ")
        case .saveHost(let id, let favorites): "save Host \(id) favorites \(favorites)"
        case .setPlayed(let ids, let played, let summary): "update \(summary ? "EpisodeSummary" : "Episode") ids \(ids) played=\(played)"
        case .renamePodcasts(let ids, let title): "update Podcast ids \(ids) title='\(title)'"
        case .renameEpisodesWherePlayed(let played, let title): "update EpisodeSummary where played = \(played) title='\(title)'"
        case .deleteByIDs(let table, let ids, let summary): "delete \(table)\(summary ? " as EpisodeSummary" : "") ids \(ids)"
        case .deleteObjects(let table, let ids): "delete \(table) objects \(ids)"
        case .deleteWhere(let table, let condition): "delete \(table) where \(condition)"
        case .saveStaleCopies(let episode, let host, let title):
            "save EpisodeSummary \(episode) '\(title)', then Host \(host) and Episode \(episode) holding older copies"
        case .failingSave(let podcast, let title): "save Podcast \(podcast) '\(title)' alongside failing SQL"
        case .batch(let operations): "batch [" + operations.map(\.description).joined(separator: " | ") + "]"
        case .reopen: "close and reopen"
        case .rawSQL(let write, let throughStore): "\(throughStore ? "the store's execute" : "another connection"): \(write)"
        case .failThenClose(let podcast, let title): "save Podcast \(podcast) '\(title)' alongside failing SQL, then close and reopen"
        }
    }

    /// Whether the operation may run inside a batch.
    var batchable: Bool {
        switch self {
        case .batch, .reopen, .failingSave, .rawSQL, .failThenClose: false
        default: true
        }
    }

    /// Whether the operation's steps commit together: a batch, and the saves of stale copies
    /// (the model refuses or accepts them as a whole).
    var runsInOneTransaction: Bool {
        switch self {
        case .batch, .saveStaleCopies: true
        default: false
        }
    }

    // MARK: Making random operations

    static let podcastIDs: [Int64] = Array(1...5)
    static let episodeIDs = (0..<14).map { "e\($0)" }
    static let hostIDs = (0..<6).map { "h\($0)" }

    static func random(using rng: inout SeededGenerator, reference: ReferenceStore) -> StoreOperation {
        func some<T>(_ pool: [T], upTo limit: Int) -> [T] {
            (0..<Int.random(in: 0...limit, using: &rng)).map { _ in pool.randomElement(using: &rng)! }
        }
        let title = "t\(Int.random(in: 0..<1_000, using: &rng))"
        let existingEpisodes = reference.episodes.keys.sorted()
        // One operation in eight writes without the store's object API, or fails and closes.
        switch Int.random(in: 0..<16, using: &rng) {
        case 0: return .rawSQL(RawWrite.random(using: &rng, title: title), throughStore: false)
        case 1: return .rawSQL(RawWrite.random(using: &rng, title: title), throughStore: true)
        default: break
        }
        if Int.random(in: 0..<50, using: &rng) == 0 {
            return .failThenClose(podcast: podcastIDs.randomElement(using: &rng)!, title: title)
        }
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<14:
            return .savePodcast(id: podcastIDs.randomElement(using: &rng)!, title: title, episodes: some(episodeIDs, upTo: 5))
        case 14..<26:
            return .saveEpisodes((0..<Int.random(in: 1...3, using: &rng)).map { _ in
                (episodeIDs.randomElement(using: &rng)!, title, Bool.random(using: &rng), some(hostIDs, upTo: 3))
            })
        case 26..<34:
            let pool = Bool.random(using: &rng) && !existingEpisodes.isEmpty ? existingEpisodes : episodeIDs
            return .saveSummaries([(pool.randomElement(using: &rng)!, title, Bool.random(using: &rng))])
        case 34..<42:
            // Mostly stored episodes: a new one in the list can't be saved as a summary.
            let pool = Int.random(in: 0..<10, using: &rng) > 0 && !existingEpisodes.isEmpty ? existingEpisodes : episodeIDs
            return .saveHost(id: hostIDs.randomElement(using: &rng)!, favorites: some(pool, upTo: 3))
        case 42..<50:
            return .setPlayed(ids: some(episodeIDs, upTo: 4), played: Bool.random(using: &rng), throughSummary: Bool.random(using: &rng))
        case 50..<54:
            return .renamePodcasts(ids: some(podcastIDs, upTo: 3), title: title)
        case 54..<58:
            return .renameEpisodesWherePlayed(Bool.random(using: &rng), title: title)
        case 58..<70:
            let table = ReferenceStore.Table.allCases.randomElement(using: &rng)!
            let pool = table == .podcasts ? podcastIDs.map(String.init) : table == .episodes ? episodeIDs : hostIDs
            return .deleteByIDs(table, ids: some(pool, upTo: 3), throughSummary: Bool.random(using: &rng))
        case 70..<76:
            let table = ReferenceStore.Table.allCases.randomElement(using: &rng)!
            let pool = table == .podcasts ? podcastIDs.map(String.init) : table == .episodes ? episodeIDs : hostIDs
            return .deleteObjects(table, ids: some(pool, upTo: 2))
        case 76..<82:
            let conditions: [(ReferenceStore.Table, String)] = [
                (.episodes, "played = 1"), (.podcasts, "uniqueID % 2 = 0"), (.hosts, "uniqueID > 'h3'"), (.episodes, "title < 't3'"),
            ]
            let (table, condition) = conditions.randomElement(using: &rng)!
            return .deleteWhere(table, condition: condition)
        case 82..<86:
            return .failingSave(podcast: podcastIDs.randomElement(using: &rng)!, title: title)
        case 86..<89:
            let pool = existingEpisodes.isEmpty ? episodeIDs : existingEpisodes
            return .saveStaleCopies(episode: pool.randomElement(using: &rng)!, host: hostIDs.randomElement(using: &rng)!, title: title)
        case 89..<97:
            var operations: [StoreOperation] = []
            while operations.count < Int.random(in: 2...3, using: &rng) {
                let operation = random(using: &rng, reference: reference)
                if operation.batchable { operations.append(operation) }
            }
            return .batch(operations)
        default:
            return .reopen
        }
    }
}

/// SplitMix64: a small, fast generator whose sequence depends only on its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
