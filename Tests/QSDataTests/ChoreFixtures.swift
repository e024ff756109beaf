import Foundation
import QSData

/// A to-do model whose children are values: a `Chore` (a uniqued class) holds `labels`, an
/// ordered relationship to `ChoreLabel`, a struct the store keeps no instance of. Deleting a
/// chore takes the labels no other chore lists (`cascade`).
enum ChoreFixtures {
    static let modelPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>objects</key><dict>
      <key>Chore</key><dict>
        <key>table</key><string>chores</string>
        <key>uniqued</key><true/>
        <key>properties</key><dict>
          <key>uniqueID</key><string>int64</string>
          <key>title</key><string>string</string>
        </dict>
        <key>relationships</key><dict>
          <key>labels</key><dict>
            <key>table</key><string>choreLabels</string>
            <key>parentID</key><string>choreID</string>
            <key>childID</key><string>labelID</string>
            <key>childClass</key><string>ChoreLabel</string>
            <key>indexKey</key><string>ix</string>
            <key>deleteRule</key><string>cascade</string>
          </dict>
        </dict>
      </dict>
      <key>ChoreLabel</key><dict>
        <key>table</key><string>labels</string>
        <key>properties</key><dict>
          <key>uniqueID</key><string>string</string>
          <key>name</key><string>string</string>
        </dict>
      </dict>
    </dict></dict></plist>
    """

    static let schemaSQL = """
    CREATE TABLE chores (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE labels (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE choreLabels (choreID INTEGER NOT NULL, labelID TEXT NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (choreID, labelID));
    CREATE INDEX choreLabelsByLabel ON choreLabels (labelID);
    """

    @MainActor
    static func openStore(url: URL = Fixtures.temporaryDatabaseURL()) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(modelPlist.utf8), fileName: "Chores.plist"),
            schema: QSSchema(creationSQL: schemaSQL), types: [Chore.self, ChoreLabel.self])
    }

    /// The name in the label's row, read with plain SQL; nil when the row is missing.
    @MainActor
    static func storedName(ofLabel id: String, in store: QSStore) async throws -> String? {
        try await store.fetchRows("SELECT name FROM labels WHERE uniqueID = ?", [.text(id)]).first.map { $0[0].plain }
    }
}

final class Chore: QSUpdatableObject {
    let uniqueID: Int64
    var title: String
    var labels: [ChoreLabel]

    init(uniqueID: Int64, title: String, labels: [ChoreLabel] = []) {
        self.uniqueID = uniqueID
        self.title = title
        self.labels = labels
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        labels = try row.related("labels")
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
        labels = try row.related("labels")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row.setRelated("labels", labels)
    }
}

struct ChoreLabel: QSDataObject, Equatable {
    let uniqueID: String
    var name: String

    init(uniqueID: String, name: String) {
        self.uniqueID = uniqueID
        self.name = name
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
    }
}
