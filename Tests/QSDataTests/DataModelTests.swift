import Foundation
import QSData
import Testing

@Suite struct DataModelTests {
    private func model(_ objects: String) throws -> QSDataModel {
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>\(objects)</dict></dict></plist>
        """
        return try QSDataModel(propertyList: Data(plist.utf8), fileName: "Bad.plist")
    }

    @Test func theFixtureModelDescribesEveryType() throws {
        let model = try Fixtures.model()
        let note = try #require(model["Note"])
        #expect(note.table == "notes")
        #expect(note.uniqued)
        #expect(note.properties.map(\.name) == ["uniqueID", "archived", "links", "sortDate", "text"])
        #expect(note.relationships.map(\.name) == ["attachments", "tags"])
        #expect(note.relationship(named: "tags")?.childType == "Tag")
        #expect(model["Tag"]?.cachePermanently == true)
        #expect(model["Tag"]?.fetchAllAtStartup == true)
        #expect(model["Attachment"]?.immutable == true)
    }

    @Test func anUnknownKeyIsNamed() {
        #expect(throws: QSDataError.invalidModel(file: "Bad.plist", type: "Tag", key: "tabel", problem: "unknown key")) {
            try model("<key>Tag</key><dict><key>tabel</key><string>tags</string></dict>")
        }
    }

    @Test func aWrongPropertyTypeIsNamed() {
        let error = #expect(throws: QSDataError.self) {
            try model("""
            <key>Tag</key><dict><key>table</key><string>tags</string>
            <key>properties</key><dict><key>uniqueID</key><string>string</string><key>count</key><string>integer</string></dict></dict>
            """)
        }
        guard case .invalidModel(let file, let type, let key, let problem) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(file == "Bad.plist")
        #expect(type == "Tag")
        #expect(key == "properties.count")
        #expect(problem.hasPrefix("unknown type 'integer'"))
    }

    @Test func aValueOfTheWrongKindIsNamed() {
        #expect(throws: QSDataError.invalidModel(file: "Bad.plist", type: "Tag", key: "uniqued", problem: "must be a boolean (<true/> or <false/>)")) {
            try model("""
            <key>Tag</key><dict><key>table</key><string>tags</string><key>uniqued</key><string>yes</string>
            <key>properties</key><dict><key>uniqueID</key><string>string</string></dict></dict>
            """)
        }
    }

    @Test func aRelationshipToAnUndeclaredTypeIsNamed() {
        #expect(throws: QSDataError.invalidModel(file: "Bad.plist", type: "Note", key: "relationships.tags.childClass", problem: "'Label' is not a declared object type")) {
            try model("""
            <key>Note</key><dict><key>table</key><string>notes</string>
            <key>properties</key><dict><key>uniqueID</key><string>int64</string></dict>
            <key>relationships</key><dict><key>tags</key><dict>
              <key>table</key><string>lookup</string><key>parentID</key><string>noteID</string>
              <key>childID</key><string>tagID</string><key>childClass</key><string>Label</string>
              <key>indexKey</key><string>ix</string></dict></dict></dict>
            """)
        }
    }

    @Test func aTypeWithoutUniqueIDIsRefused() {
        #expect(throws: QSDataError.invalidModel(file: "Bad.plist", type: "Tag", key: "properties.uniqueID", problem: "missing: every object type needs a uniqueID property")) {
            try model("<key>Tag</key><dict><key>table</key><string>tags</string><key>properties</key><dict><key>name</key><string>string</string></dict></dict>")
        }
    }

    @Test func somethingThatIsNotAPropertyListIsRefused() {
        #expect(throws: QSDataError.invalidModel(file: "Junk.plist", type: nil, key: nil, problem: "not a property list")) {
            try QSDataModel(propertyList: Data("{ not: a plist".utf8), fileName: "Junk.plist")
        }
    }

    @Test func aMissingFileIsNamed() {
        let error = #expect(throws: QSDataError.self) {
            try QSDataModel(contentsOf: URL(fileURLWithPath: "/nonexistent/Model.plist"))
        }
        #expect(error?.description.contains("Model.plist") == true)
    }
}
