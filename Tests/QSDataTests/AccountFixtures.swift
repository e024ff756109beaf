import Foundation
import QSData

/// Accounts that hold tags, notes and folders of notes, all three deleted with the account
/// (`cascade`), where a tag that lists notes may not be deleted (`deny`), nor a note that
/// points to others under "see also". The tags' table is named by the test, so that it sorts
/// before or after the notes' table.
enum AccountFixtures {
    static func modelPlist(tagTable: String) -> String {
        func relationship(_ name: String, table: String, childClass: String, rule: QSDeleteRule) -> String {
            """
            <key>\(name)</key><dict>
              <key>table</key><string>\(table)</string>
              <key>parentID</key><string>parentID</string>
              <key>childID</key><string>childID</string>
              <key>childClass</key><string>\(childClass)</string>
              <key>indexKey</key><string>ix</string>
              <key>deleteRule</key><string>\(rule.rawValue)</string>
            </dict>
            """
        }
        func object(_ name: String, table: String, relationships: [String]) -> String {
            """
            <key>\(name)</key><dict>
              <key>table</key><string>\(table)</string>
              <key>properties</key><dict>
                <key>uniqueID</key><string>int64</string>
                <key>name</key><string>string</string>
              </dict>
              <key>relationships</key><dict>\(relationships.joined())</dict>
            </dict>
            """
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>
        \(object("Account", table: "accounts", relationships: [
            relationship("tags", table: "accountTags", childClass: "Tag", rule: .cascade),
            relationship("notes", table: "accountNotes", childClass: "Note", rule: .cascade),
            relationship("folders", table: "accountFolders", childClass: "Folder", rule: .cascade),
        ]))
        \(object("Folder", table: "folders", relationships: [
            relationship("notes", table: "folderNotes", childClass: "Note", rule: .cascade),
        ]))
        \(object("Tag", table: tagTable, relationships: [
            relationship("notes", table: "tagNotes", childClass: "Note", rule: .deny),
        ]))
        \(object("Note", table: "notes", relationships: [
            relationship("seeAlso", table: "noteLinks", childClass: "Note", rule: .deny),
        ]))
        </dict></dict></plist>
        """
    }

    static let lookupTables = ["accountTags", "accountNotes", "accountFolders", "folderNotes", "tagNotes", "noteLinks"]

    static func schemaSQL(tagTable: String) -> String {
        let objects = ["accounts", "folders", tagTable, "notes"].map {
            "CREATE TABLE \($0) (uniqueID INTEGER PRIMARY KEY, name TEXT NOT NULL);"
        }
        let lookups = lookupTables.map {
            "CREATE TABLE \($0) (parentID INTEGER NOT NULL, childID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (parentID, childID));"
        }
        return (objects + lookups).joined(separator: "\n")
    }

    @MainActor
    static func openStore(tagTable: String = "tags") async throws -> QSStore {
        try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(),
            model: QSDataModel(propertyList: Data(modelPlist(tagTable: tagTable).utf8), fileName: "Accounts.plist"),
            schema: QSSchema(creationSQL: schemaSQL(tagTable: tagTable)),
            types: [Account.self, Folder.self, Tag.self, Note.self])
    }

    /// The number of rows in each table, object tables first, in a fixed order.
    @MainActor
    static func rowCounts(in store: QSStore, tagTable: String = "tags") async throws -> [Int64] {
        var counts: [Int64] = []
        for table in ["accounts", "folders", tagTable, "notes"] + lookupTables {
            guard case .integer(let count) = try await store.fetchRows("SELECT count(*) FROM \(table)").first?.first else {
                counts.append(-1)
                continue
            }
            counts.append(count)
        }
        return counts
    }

    struct Account: QSDataObject {
        let uniqueID: Int64
        var name = "account"
        var tags: [Tag] = []
        var notes: [Note] = []
        var folders: [Folder] = []

        init(uniqueID: Int64, tags: [Tag] = [], notes: [Note] = [], folders: [Folder] = []) {
            self.uniqueID = uniqueID
            self.tags = tags
            self.notes = notes
            self.folders = folders
        }

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            name = try row["name"]
            tags = try row.related("tags")
            notes = try row.related("notes")
            folders = try row.related("folders")
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["name"] = name
            row.setRelated("tags", tags)
            row.setRelated("notes", notes)
            row.setRelated("folders", folders)
        }
    }

    struct Folder: QSDataObject {
        let uniqueID: Int64
        var name = "folder"
        var notes: [Note] = []

        init(uniqueID: Int64, notes: [Note]) {
            self.uniqueID = uniqueID
            self.notes = notes
        }

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            name = try row["name"]
            notes = try row.related("notes")
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["name"] = name
            row.setRelated("notes", notes)
        }
    }

    struct Tag: QSDataObject {
        let uniqueID: Int64
        var name = "tag"
        var notes: [Note] = []

        init(uniqueID: Int64, notes: [Note]) {
            self.uniqueID = uniqueID
            self.notes = notes
        }

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            name = try row["name"]
            notes = try row.related("notes")
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["name"] = name
            row.setRelated("notes", notes)
        }
    }

    struct Note: QSDataObject {
        let uniqueID: Int64
        var name = "note"
        var seeAlso: [Note] = []

        init(uniqueID: Int64, seeAlso: [Note] = []) {
            self.uniqueID = uniqueID
            self.seeAlso = seeAlso
        }

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            name = try row["name"]
            seeAlso = try row.related("seeAlso")
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["name"] = name
            row.setRelated("seeAlso", seeAlso)
        }
    }
}
