import Foundation
import QSData

/// A podcast app's model: a podcast with an ordered relationship to many episodes, each with
/// ordered hosts (the notes fixtures' `Tag` type, stored in a `hosts` table). The episodes' loading and the podcast's caching are chosen per test.
enum ShowFixtures {
    static func model(episodes loading: QSLoading = .eager, podcastCached: Bool = false, hostsCached: Bool = true) throws -> QSDataModel {
        func flag(_ value: Bool) -> String { value ? "<true/>" : "<false/>" }
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>
          <key>Show</key><dict>
            <key>table</key><string>podcasts</string>
            <key>uniqued</key><true/>
            <key>cachePermanently</key>\(flag(podcastCached))
            <key>fetchAllAtStartup</key>\(flag(podcastCached))
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>title</key><string>string</string>
            </dict>
            <key>relationships</key><dict>
              <key>episodes</key><dict>
                <key>table</key><string>podcastEpisodes</string>
                <key>parentID</key><string>podcastID</string>
                <key>childID</key><string>episodeID</string>
                <key>indexKey</key><string>ix</string>
                <key>childClass</key><string>ShowEpisode</string>
                <key>loading</key><string>\(loading.rawValue)</string>
              </dict>
            </dict>
          </dict>
          <key>ShowList</key><dict>
            <key>table</key><string>podcasts</string>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>title</key><string>string</string>
            </dict>
          </dict>
          <key>ShowEpisode</key><dict>
            <key>table</key><string>episodes</string>
            <key>uniqued</key><true/>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>title</key><string>string</string>
              <key>duration</key><string>double</string>
            </dict>
            <key>relationships</key><dict>
              <key>hosts</key><dict>
                <key>table</key><string>episodeHosts</string>
                <key>parentID</key><string>episodeID</string>
                <key>childID</key><string>hostID</string>
                <key>indexKey</key><string>ix</string>
                <key>childClass</key><string>Tag</string>
              </dict>
            </dict>
          </dict>
          <key>Tag</key><dict>
            <key>table</key><string>hosts</string>
            <key>uniqued</key><true/>
            <key>cachePermanently</key>\(flag(hostsCached))
            <key>fetchAllAtStartup</key>\(flag(hostsCached))
            <key>properties</key><dict>
              <key>uniqueID</key><string>string</string>
              <key>name</key><string>string</string>
            </dict>
          </dict>
        </dict></dict></plist>
        """
        return try QSDataModel(propertyList: Data(plist.utf8), fileName: "Podcasts.plist")
    }

    /// Vesper's kind of lookup tables: an integer `ix`, the pair as primary key, the parent indexed.
    static let schemaSQL = """
    CREATE TABLE podcasts (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE episodes (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL, duration REAL NOT NULL);
    CREATE TABLE hosts (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE podcastEpisodes (episodeID INTEGER NOT NULL, podcastID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (episodeID, podcastID));
    CREATE INDEX podcastEpisodesPodcastID ON podcastEpisodes (podcastID);
    CREATE TABLE episodeHosts (hostID TEXT NOT NULL, episodeID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (hostID, episodeID));
    CREATE INDEX episodeHostsEpisodeID ON episodeHosts (episodeID);
    """

    @MainActor
    static func openStore(url: URL = Fixtures.temporaryDatabaseURL(), episodes loading: QSLoading = .eager,
                          podcastCached: Bool = false, hostsCached: Bool = true) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: model(episodes: loading, podcastCached: podcastCached, hostsCached: hostsCached),
            schema: QSSchema(creationSQL: schemaSQL), types: [Show.self, ShowList.self, ShowEpisode.self, Tag.self])
    }

    /// The episodes of show `id` in their stored order, read from its lookup rows.
    @MainActor
    static func storedEpisodeOrder(of id: Int64, in store: QSStore) async throws -> [Int64] {
        let rows = try await store.fetchRows("SELECT episodeID FROM podcastEpisodes WHERE podcastID = ? ORDER BY ix", [.integer(id)])
        return rows.compactMap { if case .integer(let id) = $0.first { id } else { nil } }
    }

    /// The statements of `log` that wrote episodes' lookup rows.
    static func lookupWrites(_ log: QSStatementLog) -> [String] {
        log.statements.filter { $0.contains("\"podcastEpisodes\"") && !$0.hasPrefix("SELECT") }
    }

    /// A podcast with `count` episodes numbered from `firstID`, each with two of ten shared hosts.
    static func podcast(id: Int64, episodes count: Int, firstID: Int64) -> Show {
        let hosts = (0..<10).map { Tag(name: "Host-\($0)") }
        let episodes = (0..<Int64(count)).map { offset in
            ShowEpisode(uniqueID: firstID + offset, title: "ShowEpisode \(offset)", hosts: [hosts[Int(offset % 10)], hosts[Int((offset + 3) % 10)]])
        }
        return Show(uniqueID: id, title: "Show \(id)", episodes: episodes)
    }
}

final class Show: QSUpdatableObject {
    let uniqueID: Int64
    var title: String
    var episodes: QSRelated<ShowEpisode>

    init(uniqueID: Int64, title: String, episodes: [ShowEpisode]) {
        self.uniqueID = uniqueID
        self.title = title
        self.episodes = QSRelated(episodes)
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

/// A light second type on the podcasts table: its saves change rows that Show instances came from.
struct ShowList: QSDataObject {
    let uniqueID: Int64
    var title: String

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
    }
}

final class ShowEpisode: QSUpdatableObject {
    static let materialisations = MaterialisationCounter()

    let uniqueID: Int64
    var title: String
    var duration: Double
    var hosts: [Tag]

    init(uniqueID: Int64, title: String, duration: Double = 1_800, hosts: [Tag] = []) {
        self.uniqueID = uniqueID
        self.title = title
        self.duration = duration
        self.hosts = hosts
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        ShowEpisode.materialisations.record(String(uniqueID))
        title = try row["title"]
        duration = try row["duration"]
        hosts = try row.related("hosts")
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
        duration = try row["duration"]
        hosts = try row.related("hosts")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["duration"] = duration
        row.setRelated("hosts", hosts)
    }
}
