import CSQLiteBench
import Foundation
import GRDB
import QSData

/// The startup workload's data: a feed reader's feeds and labels, which an app reads as it opens.
/// The model fetches every label when the store opens and keeps them (Vesper does so with its
/// tags), and keeps the feeds once fetched (`cachePermanently`).
enum FeedsModel {
    static let schemaSQL = """
    CREATE TABLE feeds (uniqueID TEXT PRIMARY KEY, title TEXT NOT NULL, homePage TEXT NOT NULL, sortIndex INTEGER NOT NULL);
    CREATE TABLE labels (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL);
    """

    static let plist = """
    <plist version="1.0"><dict><key>objects</key><dict>
      <key>Feed</key><dict>
        <key>table</key><string>feeds</string>
        <key>uniqued</key><true/>
        <key>cachePermanently</key><true/>
        <key>properties</key><dict>
          <key>uniqueID</key><string>string</string><key>title</key><string>string</string>
          <key>homePage</key><string>string</string><key>sortIndex</key><string>int64</string>
        </dict>
      </dict>
      <key>Label</key><dict>
        <key>table</key><string>labels</string>
        <key>uniqued</key><true/>
        <key>cachePermanently</key><true/>
        <key>fetchAllAtStartup</key><true/>
        <key>properties</key><dict><key>uniqueID</key><string>string</string><key>name</key><string>string</string></dict>
      </dict>
    </dict></dict></plist>
    """

    @MainActor
    static func openStore(_ path: String) async throws -> QSStore {
        try await QSStore.open(
            at: URL(fileURLWithPath: path), model: QSDataModel(propertyList: Data(plist.utf8)),
            schema: QSSchema(creationSQL: schemaSQL), types: [Feed.self, Label.self])
    }

    /// A closed database of `feeds` feeds and `labels` labels.
    static func template(_ path: String, feeds: Int, labels: Int) throws {
        let db = try RawDatabase(path: path)
        try db.execute(schemaSQL)
        try db.execute("BEGIN")
        let feed = try db.prepare("INSERT INTO feeds (uniqueID, title, homePage, sortIndex) VALUES (?, ?, ?, ?)")
        let label = try db.prepare("INSERT INTO labels (uniqueID, name) VALUES (?, ?)")
        defer { [feed, label].forEach { sqlite3_finalize($0) } }
        for number in 0..<feeds {
            rawBind(feed, 1, "https://feed\(number).example.com/rss")
            rawBind(feed, 2, "Feed number \(number)")
            rawBind(feed, 3, "https://feed\(number).example.com/")
            sqlite3_bind_int64(feed, 4, Int64(number))
            try db.stepDone(feed)
            sqlite3_reset(feed)
        }
        for number in 0..<labels {
            rawBind(label, 1, "label-\(number)")
            rawBind(label, 2, "Label \(number)")
            try db.stepDone(label)
            sqlite3_reset(label)
        }
        try db.execute("COMMIT")
    }
}

final class Feed: QSUpdatableObject {
    let uniqueID: String
    var title: String
    var homePage: String
    var sortIndex: Int64

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        homePage = try row["homePage"]
        sortIndex = try row["sortIndex"]
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
        homePage = try row["homePage"]
        sortIndex = try row["sortIndex"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["homePage"] = homePage
        row["sortIndex"] = sortIndex
    }
}

final class Label: QSUpdatableObject {
    let uniqueID: String
    var name: String

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
    }

    func update(from row: QSRow) throws {
        name = try row["name"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
    }
}

/// The same rows as structs, for raw sqlite3, and as GRDB records.
struct RawFeed {
    let uniqueID: String
    let title: String
    let homePage: String
    let sortIndex: Int64
}

struct RawLabel {
    let uniqueID: String
    let name: String
}

struct GRDBFeed: FetchableRecord, TableRecord {
    static let databaseTableName = "feeds"
    let uniqueID: String
    let title: String
    let homePage: String
    let sortIndex: Int64

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        title = try row.decode(forColumn: "title")
        homePage = try row.decode(forColumn: "homePage")
        sortIndex = try row.decode(forColumn: "sortIndex")
    }
}

struct GRDBLabel: FetchableRecord, TableRecord {
    static let databaseTableName = "labels"
    let uniqueID: String
    let name: String

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        name = try row.decode(forColumn: "name")
    }
}
