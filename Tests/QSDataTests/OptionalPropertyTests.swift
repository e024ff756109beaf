import Foundation
import QSData
import Testing

/// The fixture's Tag, reading its name as an optional.
private struct TagWithOptionalName: QSDataObject {
    static let modelName = "Tag"
    let uniqueID: String
    let name: String?
    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
    }
    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
    }
}

/// The model's `?` spelling (`string?`: the column may hold NULL) and the per-type keys of the
/// model code generator, as the loader and the store see them.
@MainActor
@Suite struct OptionalPropertyTests {
    private func model(_ objects: String) throws -> QSDataModel {
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>\(objects)</dict></dict></plist>
        """
        return try QSDataModel(propertyList: Data(plist.utf8), fileName: "Optional.plist")
    }

    /// The fixture model with Tag's name declared optional.
    private func modelWithOptionalTagName() throws -> QSDataModel {
        let plist = Fixtures.modelPlist()
            .replacingOccurrences(of: "<key>name</key><string>string</string>", with: "<key>name</key><string>string?</string>")
        return try QSDataModel(propertyList: Data(plist.utf8), fileName: "Notes.plist")
    }

    @Test func aQuestionMarkDeclaresAnOptionalProperty() throws {
        let tag = try #require(try modelWithOptionalTagName()["Tag"])
        #expect(tag.property(named: "name") == QSPropertyDescription(name: "name", type: .string, isOptional: true))
        #expect(tag.property(named: "name")?.typeSpelling == "string?")
        #expect(tag.property(named: "uniqueID")?.isOptional == false)
        #expect(tag.isGenerated == false)
    }

    @Test func theStoreLeavesTheGeneratorsKeysToTheGenerator() throws {
        // A uniqued struct can't work, and the generator refuses it at build time; the store
        // reads only `generate` and accepts the rest unread.
        let loaded = try model("""
        <key>Place</key><dict><key>table</key><string>places</string><key>uniqued</key><true/><key>generate</key><true/>
        <key>kind</key><string>struct</string><key>swiftTypes</key><dict><key>lat</key><string>String</string></dict>
        <key>properties</key><dict><key>uniqueID</key><string>int64</string><key>lat</key><string>double</string></dict></dict>
        """)
        #expect(loaded["Place"]?.isGenerated == true)
    }

    @Test func aHandWrittenTypeMustReadAnOptionalPropertyAsAnOptional() async throws {
        let schema = Fixtures.schemaSQL.replacingOccurrences(of: "name TEXT NOT NULL UNIQUE", with: "name TEXT UNIQUE")
        await #expect(throws: QSDataError.typeMismatch(type: "Tag", problems: [
            "init(row:) reads 'name' as String, which can't hold NULL, but the model says 'string?'",
        ])) {
            _ = try await QSStore.open(at: Fixtures.temporaryDatabaseURL(), model: modelWithOptionalTagName(),
                                       schema: QSSchema(creationSQL: schema), types: Fixtures.allTypes)
        }
    }

    @Test func anOptionalPropertyNeedsAColumnThatAllowsNull() async throws {
        await #expect(throws: QSDataError.schemaMismatch([
            "Tag.name: the model says 'string?', which may be NULL, but column 'name' of 'tags' is NOT NULL",
        ])) {
            _ = try await QSStore.open(at: Fixtures.temporaryDatabaseURL(), model: modelWithOptionalTagName(),
                                       schema: QSSchema(creationSQL: Fixtures.schemaSQL),
                                       types: [Note.self, TimelineNote.self, Attachment.self, TagWithOptionalName.self])
        }
    }
}
