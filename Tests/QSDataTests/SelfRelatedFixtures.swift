import Foundation
import QSData

/// A model whose types list objects of their own type: steps that see other steps (eagerly, as
/// an array), passages that lead on to others (as `QSRelated`, whose deletes cascade), and
/// folders, values cached for good, that hold copies of their subfolders.
enum SelfRelatedFixtures {
    static let modelPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>objects</key><dict>
      <key>Step</key><dict>
        <key>table</key><string>steps</string>
        <key>uniqued</key><true/>
        <key>properties</key><dict>
          <key>uniqueID</key><string>int64</string>
          <key>title</key><string>string</string>
        </dict>
        <key>relationships</key><dict>
          <key>seeAlso</key><dict>
            <key>table</key><string>stepLinks</string>
            <key>parentID</key><string>parentID</string>
            <key>childID</key><string>childID</string>
            <key>childClass</key><string>Step</string>
            <key>indexKey</key><string>ix</string>
          </dict>
        </dict>
      </dict>
      <key>Passage</key><dict>
        <key>table</key><string>passages</string>
        <key>uniqued</key><true/>
        <key>properties</key><dict>
          <key>uniqueID</key><string>int64</string>
          <key>text</key><string>string</string>
        </dict>
        <key>relationships</key><dict>
          <key>next</key><dict>
            <key>table</key><string>passageLinks</string>
            <key>parentID</key><string>parentID</string>
            <key>childID</key><string>childID</string>
            <key>childClass</key><string>Passage</string>
            <key>indexKey</key><string>ix</string>
            <key>deleteRule</key><string>cascade</string>
          </dict>
        </dict>
      </dict>
      <key>Folder</key><dict>
        <key>table</key><string>folders</string>
        <key>cachePermanently</key><true/>
        <key>properties</key><dict>
          <key>uniqueID</key><string>int64</string>
          <key>name</key><string>string</string>
        </dict>
        <key>relationships</key><dict>
          <key>subfolders</key><dict>
            <key>table</key><string>folderLinks</string>
            <key>parentID</key><string>parentID</string>
            <key>childID</key><string>childID</string>
            <key>childClass</key><string>Folder</string>
            <key>indexKey</key><string>ix</string>
          </dict>
        </dict>
      </dict>
    </dict></dict></plist>
    """

    static let schemaSQL = """
    CREATE TABLE steps (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE stepLinks (parentID INTEGER NOT NULL, childID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (parentID, childID));
    CREATE TABLE passages (uniqueID INTEGER PRIMARY KEY, text TEXT NOT NULL);
    CREATE TABLE passageLinks (parentID INTEGER NOT NULL, childID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (parentID, childID));
    CREATE TABLE folders (uniqueID INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE folderLinks (parentID INTEGER NOT NULL, childID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (parentID, childID));
    """

    @MainActor
    static func openStore(url: URL) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(modelPlist.utf8), fileName: "SelfRelated.plist"),
            schema: QSSchema(creationSQL: schemaSQL), types: [Step.self, Passage.self, Folder.self])
    }
}

/// A step that lists other steps, itself among them if it likes.
final class Step: QSUpdatableObject {
    let uniqueID: Int64
    var title: String
    var seeAlso: [Step] = []
    /// Makes the step's encoding fail: it then writes a column its table lacks.
    var failsToEncode = false

    init(uniqueID: Int64, title: String) {
        self.uniqueID = uniqueID
        self.title = title
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        seeAlso = try row.related("seeAlso")
    }

    func update(from row: QSRow) throws {
        title = try row["title"]
        seeAlso = try row.related("seeAlso")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        if failsToEncode { row["noSuchColumn"] = title } else { row["title"] = title }
        row.setRelated("seeAlso", seeAlso)
    }
}

/// A passage leading on to others, held as `QSRelated` so that it can be read lazily.
final class Passage: QSUpdatableObject {
    let uniqueID: Int64
    var text: String
    var next = QSRelated<Passage>([])

    init(uniqueID: Int64, text: String) {
        self.uniqueID = uniqueID
        self.text = text
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        text = try row["text"]
        next = try row.related("next")
    }

    func update(from row: QSRow) throws {
        text = try row["text"]
        next = try row.related("next")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["text"] = text
        row.setRelated("next", next)
    }
}

/// A folder, a value the store caches for good, holding copies of its subfolders.
struct Folder: QSDataObject, Equatable {
    let uniqueID: Int64
    var name: String
    var subfolders: [Folder]

    init(uniqueID: Int64, name: String, subfolders: [Folder] = []) {
        self.uniqueID = uniqueID
        self.name = name
        self.subfolders = subfolders
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
        subfolders = try row.related("subfolders")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
        row.setRelated("subfolders", subfolders)
    }
}
