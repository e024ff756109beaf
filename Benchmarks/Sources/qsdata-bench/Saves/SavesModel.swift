import Foundation
import GRDB
import QSData

/// The incremental-saves workload's data: shows, each with an ordered list of episodes, in a
/// lookup table with Vesper's kind of integer `ix` column.
enum SavesModel {
    static let gap: Int64 = 1 << 20

    static let schemaSQL = """
    CREATE TABLE shows (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE episodes (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL, duration REAL NOT NULL);
    CREATE TABLE showEpisodes (episodeID INTEGER NOT NULL, showID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (episodeID, showID));
    CREATE INDEX showEpisodesShowID ON showEpisodes (showID);
    """

    static let plist = """
    <plist version="1.0"><dict><key>objects</key><dict>
      <key>Show</key><dict>
        <key>table</key><string>shows</string>
        <key>uniqued</key><true/>
        <key>properties</key><dict><key>uniqueID</key><string>int64</string><key>title</key><string>string</string></dict>
        <key>relationships</key><dict><key>episodes</key><dict>
          <key>table</key><string>showEpisodes</string><key>parentID</key><string>showID</string>
          <key>childID</key><string>episodeID</string><key>indexKey</key><string>ix</string>
          <key>childClass</key><string>ShowEpisode</string><key>loading</key><string>lazy</string>
        </dict></dict>
      </dict>
      <key>ShowEpisode</key><dict>
        <key>table</key><string>episodes</string>
        <key>uniqued</key><true/>
        <key>properties</key><dict>
          <key>uniqueID</key><string>int64</string><key>title</key><string>string</string><key>duration</key><string>double</string>
        </dict>
      </dict>
    </dict></dict></plist>
    """

    @MainActor
    static func openStore(_ path: String) async throws -> QSStore {
        try await QSStore.open(
            at: URL(fileURLWithPath: path), model: QSDataModel(propertyList: Data(plist.utf8)),
            schema: QSSchema(creationSQL: schemaSQL), types: [Show.self, ShowEpisode.self])
    }

    /// A store on `path` with episodes alone, as `MarkingShowEpisode`s.
    @MainActor
    static func openMarkingStore(_ path: String) async throws -> QSStore {
        let plist = """
        <plist version="1.0"><dict><key>objects</key><dict>
          <key>ShowEpisode</key><dict>
            <key>table</key><string>episodes</string>
            <key>uniqued</key><true/>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string><key>title</key><string>string</string><key>duration</key><string>double</string>
            </dict>
          </dict>
        </dict></dict></plist>
        """
        return try await QSStore.open(
            at: URL(fileURLWithPath: path), model: QSDataModel(propertyList: Data(plist.utf8)),
            schema: QSSchema(creationSQL: schemaSQL), types: [MarkingShowEpisode.self])
    }

    static func episodeID(show: Int64, position: Int) -> Int64 { show * 10_000 + Int64(position) }
    /// The ID of the episode added at the front of a show.
    static func newEpisodeID(show: Int64) -> Int64 { show * 10_000 + 9_999 }
}

final class Show: QSUpdatableObject {
    let uniqueID: Int64
    var title: String
    var episodes: QSRelated<ShowEpisode>

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

final class ShowEpisode: QSUpdatableObject {
    let uniqueID: Int64
    var title: String
    var duration: Double

    init(uniqueID: Int64, title: String, duration: Double) {
        self.uniqueID = uniqueID
        self.title = title
        self.duration = duration
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        duration = try row["duration"]
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
        duration = try row["duration"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["duration"] = duration
    }
}

/// An episode that marks each property the app sets (`QSChangeTrackingObject`), as generated
/// model types do: the store keeps no copy of its row's values, and a save compares none.
final class MarkingShowEpisode: QSChangeTrackingObject {
    static let modelName = "ShowEpisode"

    let uniqueID: Int64
    var title: String { didSet { changedProperties.insert("title", from: oldValue, to: title) } }
    var duration: Double { didSet { changedProperties.insert("duration", from: oldValue, to: duration) } }
    var changedProperties = QSChangedProperties()

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        duration = try row["duration"]
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
        duration = try row["duration"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["duration"] = duration
    }
}

/// GRDB's record for an episode, and for a lookup row.
struct GRDBEpisode: FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "episodes"
    let uniqueID: Int64
    var title: String
    var duration: Double

    init(uniqueID: Int64, title: String, duration: Double) {
        self.uniqueID = uniqueID
        self.title = title
        self.duration = duration
    }

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        title = try row.decode(forColumn: "title")
        duration = try row.decode(forColumn: "duration")
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["uniqueID"] = uniqueID
        container["title"] = title
        container["duration"] = duration
    }
}

struct GRDBShowEpisode: PersistableRecord {
    static let databaseTableName = "showEpisodes"
    let showID: Int64
    let episodeID: Int64
    let ix: Int64

    func encode(to container: inout PersistenceContainer) throws {
        container["showID"] = showID
        container["episodeID"] = episodeID
        container["ix"] = ix
    }
}
