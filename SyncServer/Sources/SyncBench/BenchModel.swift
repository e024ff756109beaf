import Foundation
import QSData

/// The benchmark's synced model: feeds' articles with read and starred state, like a reader's.
struct BenchArticle: QSDataObject {
    let uniqueID: String
    var feedID: String
    var title: String
    var summary: String
    var url: String
    var read: Bool
    var starred: Bool

    init(uniqueID: String, feedID: String, title: String, summary: String, url: String, read: Bool = false, starred: Bool = false) {
        self.uniqueID = uniqueID
        self.feedID = feedID
        self.title = title
        self.summary = summary
        self.url = url
        self.read = read
        self.starred = starred
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        feedID = try row["feedID"]
        title = try row["title"]
        summary = try row["summary"]
        url = try row["url"]
        read = try row["read"]
        starred = try row["starred"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["feedID"] = feedID
        row["title"] = title
        row["summary"] = summary
        row["url"] = url
        row["read"] = read
        row["starred"] = starred
    }
}

enum BenchModel {
    static let plist = """
        <plist version="1.0"><dict><key>objects</key><dict>
          <key>BenchArticle</key><dict>
            <key>table</key><string>articles</string>
            <key>synced</key><true/>
            <key>properties</key><dict>
              <key>uniqueID</key><string>string</string>
              <key>feedID</key><string>string</string>
              <key>title</key><string>string</string>
              <key>summary</key><string>string</string>
              <key>url</key><string>string</string>
              <key>read</key><string>boolean</string>
              <key>starred</key><string>boolean</string>
            </dict>
          </dict>
          <key>BenchFolder</key><dict>
            <key>table</key><string>folders</string>
            <key>synced</key><true/>
            <key>properties</key><dict>
              <key>uniqueID</key><string>string</string>
              <key>name</key><string>string</string>
            </dict>
            <key>relationships</key><dict>
              <key>articles</key><dict>
                <key>table</key><string>folderArticles</string>
                <key>parentID</key><string>folderID</string>
                <key>childID</key><string>articleID</string>
                <key>childClass</key><string>BenchArticle</string>
                <key>indexKey</key><string>ix</string>
              </dict>
            </dict>
          </dict>
        </dict></dict></plist>
        """

    static let schema = """
        CREATE TABLE articles (uniqueID TEXT PRIMARY KEY, feedID TEXT NOT NULL, title TEXT NOT NULL, summary TEXT NOT NULL,
            url TEXT NOT NULL, read INTEGER NOT NULL DEFAULT 0, starred INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE folders (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE folderArticles (folderID TEXT NOT NULL, articleID TEXT NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (folderID, articleID));
        """

    @MainActor
    static func open(at url: URL) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(plist.utf8)), schema: QSSchema(creationSQL: schema), types: [BenchArticle.self])
    }

    static func articles(_ count: Int) -> [BenchArticle] {
        (0..<count).map { index in
            BenchArticle(
                uniqueID: "https://feed\(index % 100).example.com/item/\(index)", feedID: "https://feed\(index % 100).example.com/",
                title: "Article number \(index) about something", summary: String(repeating: "Some summary text. ", count: 10),
                url: "https://feed\(index % 100).example.com/item/\(index).html")
        }
    }
}
