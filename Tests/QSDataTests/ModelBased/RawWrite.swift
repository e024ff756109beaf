import QSData

/// SQL that writes model tables without the store's object API: run on a connection of its own
/// (as another process would) or through the store's `execute`. The store must take it in
/// through its change log. Each write is simulated on the reference with the same effect.
enum RawWrite: CustomStringConvertible {
    case renameEpisodes(ids: [String], title: String)
    case setPlayed(ids: [String], played: Bool)
    case renamePodcast(id: Int64, title: String)
    case insertPodcast(id: Int64, title: String)
    case insertEpisode(id: String, title: String)
    /// Deletes an episode with its lookup rows, unless a host lists it as a favorite.
    case deleteEpisode(id: String)

    var description: String {
        switch self {
        case .renameEpisodes(let ids, let title): "UPDATE episodes \(ids) title='\(title)'"
        case .setPlayed(let ids, let played): "UPDATE episodes \(ids) played=\(played)"
        case .renamePodcast(let id, let title): "UPDATE podcasts \(id) title='\(title)'"
        case .insertPodcast(let id, let title): "INSERT podcast \(id) '\(title)'"
        case .insertEpisode(let id, let title): "INSERT episode \(id) '\(title)'"
        case .deleteEpisode(let id): "DELETE episode \(id) and its lookup rows unless a favorite"
        }
    }

    /// The statements, with their arguments.
    var statements: [(sql: String, arguments: [SQLValue])] {
        switch self {
        case .renameEpisodes(let ids, let title):
            [("UPDATE episodes SET title = ? WHERE uniqueID IN (SELECT value FROM json_each(?))", [.text(title), Self.json(ids)])]
        case .setPlayed(let ids, let played):
            [("UPDATE episodes SET played = ? WHERE uniqueID IN (SELECT value FROM json_each(?))", [.integer(played ? 1 : 0), Self.json(ids)])]
        case .renamePodcast(let id, let title):
            [("UPDATE podcasts SET title = ? WHERE uniqueID = ?", [.text(title), .integer(id)])]
        case .insertPodcast(let id, let title):
            [("INSERT OR IGNORE INTO podcasts (uniqueID, title) VALUES (?, ?)", [.integer(id), .text(title)])]
        case .insertEpisode(let id, let title):
            [("INSERT OR IGNORE INTO episodes (uniqueID, title, played, audioURL) VALUES (?, ?, 0, ?)",
              [.text(id), .text(title), .text(Self.audioURL(id))])]
        case .deleteEpisode(let id):
            [
                ("DELETE FROM podcastEpisodes WHERE episodeID = ?1 AND NOT EXISTS (SELECT 1 FROM hostFavorites WHERE episodeID = ?1)", [.text(id)]),
                ("DELETE FROM episodeHosts WHERE episodeID = ?1 AND NOT EXISTS (SELECT 1 FROM hostFavorites WHERE episodeID = ?1)", [.text(id)]),
                ("DELETE FROM episodes WHERE uniqueID = ?1 AND NOT EXISTS (SELECT 1 FROM hostFavorites WHERE episodeID = ?1)", [.text(id)]),
            ]
        }
    }

    func simulate(_ reference: inout ReferenceStore) throws {
        switch self {
        case .renameEpisodes(let ids, let title):
            for id in ids where reference.episodes[id] != nil { reference.episodes[id]?.title = title }
        case .setPlayed(let ids, let played):
            reference.setPlayed(played, episodes: ids)
        case .renamePodcast(let id, let title):
            reference.setTitle(title, podcasts: [String(id)])
        case .insertPodcast(let id, let title):
            if reference.podcasts[String(id)] == nil { reference.podcasts[String(id)] = title }
        case .insertEpisode(let id, let title):
            if reference.episodes[id] == nil {
                reference.episodes[id] = ReferenceStore.EpisodeRow(title: title, played: false, audioURL: Self.audioURL(id))
            }
        case .deleteEpisode(let id):
            let isFavorite = reference.lookups[.hostFavorites]?.values.contains { $0.contains(id) } ?? false
            if !isFavorite { try reference.delete(.episodes, ids: [id]) }
        }
    }

    static func audioURL(_ id: String) -> String { "https://example.com/\(id).mp3" }

    private static func json(_ ids: [String]) -> SQLValue {
        .text("[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]")
    }

    static func random(using rng: inout SeededGenerator, title: String) -> RawWrite {
        func some<T>(_ pool: [T], upTo limit: Int) -> [T] {
            (0..<Int.random(in: 1...limit, using: &rng)).compactMap { _ in pool.randomElement(using: &rng) }
        }
        let episodes = StoreOperation.episodeIDs, podcasts = StoreOperation.podcastIDs
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .renameEpisodes(ids: some(episodes, upTo: 4), title: title)
        case 1: return .setPlayed(ids: some(episodes, upTo: 6), played: Bool.random(using: &rng))
        case 2: return .renamePodcast(id: podcasts.randomElement(using: &rng) ?? 1, title: title)
        case 3: return .insertPodcast(id: podcasts.randomElement(using: &rng) ?? 1, title: title)
        case 4: return .insertEpisode(id: episodes.randomElement(using: &rng) ?? "e0", title: title)
        default: return .deleteEpisode(id: episodes.randomElement(using: &rng) ?? "e0")
        }
    }
}
