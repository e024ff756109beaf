import Foundation
import QSData
import Synchronization
import TestSupport

/// A small notes model used across the tests: the shape of Vesper's, written for these tests.
enum Fixtures {
    static func modelPlist(tagsCached: Bool = true, attachmentsCached: Bool = false) -> String {
        """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>objects</key>
      <dict>
        <key>Note</key>
        <dict>
          <key>table</key><string>notes</string>
          <key>uniqued</key><true/>
          <key>properties</key>
          <dict>
            <key>uniqueID</key><string>int64</string>
            <key>text</key><string>string</string>
            <key>archived</key><string>boolean</string>
            <key>sortDate</key><string>date</string>
            <key>links</key><string>plist</string>
          </dict>
          <key>relationships</key>
          <dict>
            <key>tags</key>
            <dict>
              <key>table</key><string>tagsNotesLookup</string>
              <key>parentID</key><string>noteID</string>
              <key>childID</key><string>tagID</string>
              <key>childClass</key><string>Tag</string>
              <key>indexKey</key><string>ix</string>
            </dict>
            <key>attachments</key>
            <dict>
              <key>table</key><string>attachmentsNotesLookup</string>
              <key>parentID</key><string>noteID</string>
              <key>childID</key><string>attachmentID</string>
              <key>childClass</key><string>Attachment</string>
              <key>indexKey</key><string>ix</string>
            </dict>
          </dict>
        </dict>
        <key>TimelineNote</key>
        <dict>
          <key>table</key><string>notes</string>
          <key>properties</key>
          <dict>
            <key>uniqueID</key><string>int64</string>
            <key>text</key><string>string</string>
            <key>archived</key><string>boolean</string>
            <key>sortDate</key><string>date</string>
          </dict>
        </dict>
        <key>Tag</key>
        <dict>
          <key>table</key><string>tags</string>
          <key>uniqued</key><true/>
          <key>cachePermanently</key><\(tagsCached ? "true" : "false")/>
          <key>fetchAllAtStartup</key><\(tagsCached ? "true" : "false")/>
          <key>properties</key>
          <dict>
            <key>uniqueID</key><string>string</string>
            <key>name</key><string>string</string>
          </dict>
        </dict>
        <key>Attachment</key>
        <dict>
          <key>table</key><string>attachments</string>
          <key>immutable</key><true/>
          <key>cachePermanently</key><\(attachmentsCached ? "true" : "false")/>
          <key>fetchAllAtStartup</key><\(attachmentsCached ? "true" : "false")/>
          <key>properties</key>
          <dict>
            <key>uniqueID</key><string>string</string>
            <key>mimeType</key><string>string</string>
            <key>width</key><string>int64</string>
            <key>height</key><string>int64</string>
          </dict>
        </dict>
      </dict>
    </dict>
    </plist>
    """
    }

    static func model(tagsCached: Bool = true, attachmentsCached: Bool = false) throws -> QSDataModel {
        let plist = modelPlist(tagsCached: tagsCached, attachmentsCached: attachmentsCached)
        return try QSDataModel(propertyList: Data(plist.utf8), fileName: "Notes.plist")
    }

    static let schemaSQL = """
    CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY, text TEXT NOT NULL, archived BOOLEAN NOT NULL DEFAULT 0, sortDate DATE NOT NULL, links BLOB);
    CREATE TABLE tags (uniqueID TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE attachments (uniqueID TEXT PRIMARY KEY, mimeType TEXT NOT NULL, width INTEGER, height INTEGER);
    CREATE TABLE deletedNotes (uniqueID INTEGER PRIMARY KEY);
    CREATE TABLE tagsNotesLookup (tagID TEXT NOT NULL, noteID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (tagID, noteID));
    CREATE TABLE attachmentsNotesLookup (attachmentID TEXT NOT NULL, noteID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (attachmentID, noteID));
    CREATE INDEX tagsNoteIDIndex ON tagsNotesLookup (noteID);
    CREATE INDEX attachmentsNoteIDIndex ON attachmentsNotesLookup (noteID);
    """

    static let allTypes: [any QSDataObject.Type] = [Note.self, TimelineNote.self, Tag.self, Attachment.self]

    /// A fresh database in a new folder of the test run's.
    static func temporaryDatabaseURL() -> URL {
        TestRunFolder.newFolder("qsdata-tests").appendingPathComponent("test.sqlite")
    }

    @MainActor
    static func openStore(url: URL = temporaryDatabaseURL(), tagsCached: Bool = true, attachmentsCached: Bool = false) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: model(tagsCached: tagsCached, attachmentsCached: attachmentsCached),
            schema: QSSchema(creationSQL: schemaSQL), types: allTypes)
    }

    static let referenceDate = Date(timeIntervalSince1970: 1_400_000_000)
}

/// Counts how often rows were made into instances, per uniqueID, so parallel tests don't mix.
final class MaterialisationCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func record(_ id: String) {
        counts.withLock { $0[id, default: 0] += 1 }
    }

    func count(_ ids: some Sequence<String>) -> Int {
        counts.withLock { counts in ids.reduce(0) { $0 + (counts[$1] ?? 0) } }
    }
}

final class Note: QSUpdatableObject {
    static let materialisations = MaterialisationCounter()

    let uniqueID: Int64
    var text: String
    var archived: Bool
    var sortDate: Date
    var links: [String]?
    var tags: [Tag]
    var attachments: [Attachment]

    init(uniqueID: Int64, text: String, archived: Bool = false, sortDate: Date = Fixtures.referenceDate,
         links: [String]? = nil, tags: [Tag] = [], attachments: [Attachment] = []) {
        self.uniqueID = uniqueID
        self.text = text
        self.archived = archived
        self.sortDate = sortDate
        self.links = links
        self.tags = tags
        self.attachments = attachments
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        Note.materialisations.record(String(uniqueID))
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func update(from row: QSRow) throws {
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["text"] = text
        row["archived"] = archived
        row["sortDate"] = sortDate
        row["links"] = links
        row.setRelated("tags", tags)
        row.setRelated("attachments", attachments)
    }
}

struct TimelineNote: QSDataObject, Equatable {
    let uniqueID: Int64
    var text: String
    var archived: Bool
    var sortDate: Date

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["text"] = text
        row["archived"] = archived
        row["sortDate"] = sortDate
    }
}

final class Tag: QSUpdatableObject {
    static let materialisations = MaterialisationCounter()

    let uniqueID: String
    var name: String

    init(name: String) {
        self.uniqueID = name.lowercased()
        self.name = name
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        Tag.materialisations.record(uniqueID)
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

struct Attachment: QSDataObject, Equatable {
    let uniqueID: String
    var mimeType: String
    var width: Int64
    var height: Int64

    init(uniqueID: String, mimeType: String = "image/png", width: Int64 = 640, height: Int64 = 480) {
        self.uniqueID = uniqueID
        self.mimeType = mimeType
        self.width = width
        self.height = height
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        mimeType = try row["mimeType"]
        width = try row["width"]
        height = try row["height"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["mimeType"] = mimeType
        row["width"] = width
        row["height"] = height
    }
}
