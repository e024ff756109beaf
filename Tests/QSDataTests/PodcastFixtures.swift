import Foundation
import QSData

/// A small podcast library, written for the integrity tests: `Podcast` → ordered `episodes`,
/// `Episode` → ordered `hosts`, `Host` → ordered `favorites` (back to the episodes table, as the
/// light `EpisodeSummary`, which lacks `Episode`'s required `audioURL`).
enum PodcastFixtures {
    struct Rules {
        var episodes: QSDeleteRule = .nullify
        var hosts: QSDeleteRule = .nullify
        var favorites: QSDeleteRule = .nullify
    }

    static func modelPlist(_ rules: Rules) -> String {
        func relationship(_ name: String, table: String, parent: String, child: String, childClass: String, rule: QSDeleteRule) -> String {
            """
            <key>\(name)</key>
            <dict>
              <key>table</key><string>\(table)</string>
              <key>parentID</key><string>\(parent)</string>
              <key>childID</key><string>\(child)</string>
              <key>childClass</key><string>\(childClass)</string>
              <key>indexKey</key><string>ix</string>
              \(rule == .nullify ? "" : "<key>deleteRule</key><string>\(rule.rawValue)</string>")
            </dict>
            """
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>objects</key>
          <dict>
            <key>Podcast</key>
            <dict>
              <key>table</key><string>podcasts</string>
              <key>uniqued</key><true/>
              <key>cachePermanently</key><true/>
              <key>fetchAllAtStartup</key><true/>
              <key>properties</key>
              <dict>
                <key>uniqueID</key><string>int64</string>
                <key>title</key><string>string</string>
              </dict>
              <key>relationships</key>
              <dict>
                \(relationship("episodes", table: "podcastEpisodes", parent: "podcastID", child: "episodeID", childClass: "Episode", rule: rules.episodes))
              </dict>
            </dict>
            <key>Episode</key>
            <dict>
              <key>table</key><string>episodes</string>
              <key>uniqued</key><true/>
              <key>properties</key>
              <dict>
                <key>uniqueID</key><string>string</string>
                <key>title</key><string>string</string>
                <key>played</key><string>boolean</string>
                <key>audioURL</key><string>string</string>
              </dict>
              <key>relationships</key>
              <dict>
                \(relationship("hosts", table: "episodeHosts", parent: "episodeID", child: "hostID", childClass: "Host", rule: rules.hosts))
              </dict>
            </dict>
            <key>EpisodeSummary</key>
            <dict>
              <key>table</key><string>episodes</string>
              <key>properties</key>
              <dict>
                <key>uniqueID</key><string>string</string>
                <key>title</key><string>string</string>
                <key>played</key><string>boolean</string>
              </dict>
            </dict>
            <key>Host</key>
            <dict>
              <key>table</key><string>hosts</string>
              <key>immutable</key><true/>
              <key>properties</key>
              <dict>
                <key>uniqueID</key><string>string</string>
                <key>name</key><string>string</string>
              </dict>
              <key>relationships</key>
              <dict>
                \(relationship("favorites", table: "hostFavorites", parent: "hostID", child: "episodeID", childClass: "EpisodeSummary", rule: rules.favorites))
              </dict>
            </dict>
          </dict>
        </dict>
        </plist>
        """
    }

    static let schemaSQL = """
    CREATE TABLE podcasts (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE episodes (uniqueID TEXT PRIMARY KEY, title TEXT NOT NULL, played BOOLEAN NOT NULL DEFAULT 0, audioURL TEXT NOT NULL);
    CREATE TABLE hosts (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE podcastEpisodes (podcastID INTEGER NOT NULL, episodeID TEXT NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (podcastID, episodeID));
    CREATE INDEX podcastEpisodesByEpisode ON podcastEpisodes (episodeID);
    CREATE TABLE episodeHosts (episodeID TEXT NOT NULL, hostID TEXT NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (episodeID, hostID));
    CREATE INDEX episodeHostsByHost ON episodeHosts (hostID);
    CREATE TABLE hostFavorites (hostID TEXT NOT NULL, episodeID TEXT NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (hostID, episodeID));
    CREATE INDEX hostFavoritesByEpisode ON hostFavorites (episodeID);
    """

    static let lookupTables = ["podcastEpisodes", "episodeHosts", "hostFavorites"]

    static func model(_ rules: Rules = Rules()) throws -> QSDataModel {
        try QSDataModel(propertyList: Data(modelPlist(rules).utf8), fileName: "Podcasts.plist")
    }

    @MainActor
    static func openStore(url: URL = Fixtures.temporaryDatabaseURL(), rules: Rules = Rules()) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: model(rules), schema: QSSchema(creationSQL: schemaSQL),
            types: [Podcast.self, Episode.self, EpisodeSummary.self, Host.self])
    }

    /// The rows of a lookup table as "parent>child" strings in (parent, index) order.
    @MainActor
    static func lookupRows(_ table: String, in store: QSStore) async throws -> [String] {
        let rows = try await store.fetchRows("SELECT * FROM \(table) ORDER BY 1, ix")
        return rows.map { "\($0[0].plain)>\($0[1].plain)" }
    }

    @MainActor
    static func count(_ table: String, in store: QSStore) async throws -> Int64 {
        guard case .integer(let count) = try await store.fetchRows("SELECT count(*) FROM \(table)").first?.first else { return -1 }
        return count
    }
}

extension SQLValue {
    /// The value without SQL quoting, for compact expectations.
    var plain: String {
        if case .text(let text) = self { return text }
        return description
    }
}

final class Podcast: QSUpdatableObject {
    let uniqueID: Int64
    var title: String
    var episodes: [Episode]

    init(uniqueID: Int64, title: String, episodes: [Episode] = []) {
        self.uniqueID = uniqueID
        self.title = title
        self.episodes = episodes
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        episodes = try row.related("episodes")
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
        episodes = try row.related("episodes")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row.setRelated("episodes", episodes)
    }
}

/// Marks what the app sets (see `QSChangeTrackingObject`), so that the tests that use it, the
/// model-based one among them, run saves that compare no row snapshot's values.
final class Episode: QSChangeTrackingObject {
    let uniqueID: String
    var title: String { didSet { changedProperties.insert("title", from: oldValue, to: title) } }
    var played: Bool { didSet { changedProperties.insert("played", from: oldValue, to: played) } }
    var audioURL: String { didSet { changedProperties.insert("audioURL", from: oldValue, to: audioURL) } }
    var hosts: [Host]
    var changedProperties = QSChangedProperties()

    init(uniqueID: String, title: String, played: Bool = false, audioURL: String = "https://example.com/a.mp3", hosts: [Host] = []) {
        self.uniqueID = uniqueID
        self.title = title
        self.played = played
        self.audioURL = audioURL
        self.hosts = hosts
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        played = try row["played"]
        audioURL = try row["audioURL"]
        hosts = try row.related("hosts")
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
        played = try row["played"]
        audioURL = try row["audioURL"]
        hosts = try row.related("hosts")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["played"] = played
        row["audioURL"] = audioURL
        row.setRelated("hosts", hosts)
    }
}

struct EpisodeSummary: QSDataObject, Equatable {
    init(_ episode: Episode) {
        self.init(uniqueID: episode.uniqueID, title: episode.title, played: episode.played)
    }

    let uniqueID: String
    var title: String
    var played: Bool

    init(uniqueID: String, title: String, played: Bool = false) {
        self.uniqueID = uniqueID
        self.title = title
        self.played = played
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        played = try row["played"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["played"] = played
    }
}

struct Host: QSDataObject, Equatable {
    let uniqueID: String
    let name: String
    var favorites: [EpisodeSummary]

    init(uniqueID: String, name: String? = nil, favorites: [EpisodeSummary] = []) {
        self.uniqueID = uniqueID
        self.name = name ?? uniqueID.capitalized
        self.favorites = favorites
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
        favorites = try row.related("favorites")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
        row.setRelated("favorites", favorites)
    }

    static func == (lhs: Host, rhs: Host) -> Bool {
        lhs.uniqueID == rhs.uniqueID && lhs.name == rhs.name && lhs.favorites == rhs.favorites
    }
}
