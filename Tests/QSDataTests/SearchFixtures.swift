import Foundation
import QSData

/// The test notes model with full-text search over `Note.text`, and a small model of posts whose
/// uniqueIDs are strings (their search index goes through the table's own rowid).
enum SearchFixtures {
    static let notesSearchSQL = """
    CREATE VIRTUAL TABLE notesSearch USING fts5(text, content='notes', content_rowid='uniqueID');
    CREATE TRIGGER notesSearchInsert AFTER INSERT ON notes BEGIN
        INSERT INTO notesSearch(rowid, text) VALUES (new.uniqueID, new.text);
    END;
    CREATE TRIGGER notesSearchDelete AFTER DELETE ON notes BEGIN
        INSERT INTO notesSearch(notesSearch, rowid, text) VALUES ('delete', old.uniqueID, old.text);
    END;
    CREATE TRIGGER notesSearchUpdate AFTER UPDATE OF text ON notes WHEN old.text IS NOT new.text BEGIN
        INSERT INTO notesSearch(notesSearch, rowid, text) VALUES ('delete', old.uniqueID, old.text);
        INSERT INTO notesSearch(rowid, text) VALUES (new.uniqueID, new.text);
    END;
    """

    /// The notes model with `search` added to `Note`.
    static func notesModel(search: [String: Any] = ["table": "notesSearch", "columns": ["text"]]) throws -> QSDataModel {
        let plist = Data(Fixtures.modelPlist().utf8)
        guard var root = try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any],
              var objects = root["objects"] as? [String: Any],
              var note = objects["Note"] as? [String: Any]
        else { throw CocoaError(.propertyListReadCorrupt) }
        note["search"] = search
        objects["Note"] = note
        root["objects"] = objects
        let data = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
        return try QSDataModel(propertyList: data, fileName: "SearchableNotes.plist")
    }

    @MainActor
    static func openNotesStore(searchSQL: String = notesSearchSQL) async throws -> QSStore {
        try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: notesModel(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL + "\n" + searchSQL), types: Fixtures.allTypes)
    }

    static let postsPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
      <key>objects</key>
      <dict>
        <key>Post</key>
        <dict>
          <key>table</key><string>posts</string>
          <key>properties</key>
          <dict>
            <key>uniqueID</key><string>string</string>
            <key>title</key><string>string</string>
            <key>body</key><string>string</string>
          </dict>
          <key>search</key>
          <dict>
            <key>table</key><string>postsSearch</string>
            <key>columns</key><array><string>title</string><string>body</string></array>
          </dict>
        </dict>
      </dict>
    </dict>
    </plist>
    """

    static let postsSQL = """
    CREATE TABLE posts (uniqueID TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
    CREATE VIRTUAL TABLE postsSearch USING fts5(title, body, content='posts');
    CREATE TRIGGER postsSearchInsert AFTER INSERT ON posts BEGIN
        INSERT INTO postsSearch(rowid, title, body) VALUES (new.rowid, new.title, new.body);
    END;
    CREATE TRIGGER postsSearchDelete AFTER DELETE ON posts BEGIN
        INSERT INTO postsSearch(postsSearch, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
    END;
    CREATE TRIGGER postsSearchUpdate AFTER UPDATE ON posts BEGIN
        INSERT INTO postsSearch(postsSearch, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
        INSERT INTO postsSearch(rowid, title, body) VALUES (new.rowid, new.title, new.body);
    END;
    """

    @MainActor
    static func openPostsStore(sql: String = postsSQL) async throws -> QSStore {
        try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: QSDataModel(propertyList: Data(postsPlist.utf8), fileName: "Posts.plist"),
            schema: QSSchema(creationSQL: sql), types: [Post.self])
    }
}

struct Post: QSDataObject, Equatable {
    let uniqueID: String
    var title: String
    var body: String

    init(uniqueID: String, title: String, body: String) {
        self.uniqueID = uniqueID
        self.title = title
        self.body = body
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        body = try row["body"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["body"] = body
    }
}
