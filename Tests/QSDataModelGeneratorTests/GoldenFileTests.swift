import Foundation
import QSData
import QSDataModelCodeGen
import Testing

/// The generator's output for the library model, byte for byte. The same model is compiled by the
/// build plugin into QSDataGeneratedTypesTests, which proves the golden code builds and works.
/// After a deliberate change, regenerate with `QSDATA_UPDATE_GOLDEN=1 swift test --filter GoldenFileTests`.
@Suite struct GoldenFileTests {
    private func expectGolden(_ name: String, access: AccessLevel) throws {
        let generated = try GeneratorFixtures.generate(GeneratorFixtures.libraryModel, access: access)
        let golden = GeneratorFixtures.goldenFolder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["QSDATA_UPDATE_GOLDEN"] == "1" {
            try Data(generated.utf8).write(to: golden)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(generated == expected, "regenerate with QSDATA_UPDATE_GOLDEN=1 if the change is intended")
    }

    @Test func theLibraryModelGivesTheGoldenInternalTypes() throws {
        try expectGolden("Library+Generated.swift", access: .internal)
    }

    @Test func aLibraryTargetGetsTheGoldenPublicTypes() throws {
        try expectGolden("Library+Generated.public.swift", access: .public)
    }

    @Test func theSameModelGivesTheSameBytesWhateverItsKeyOrder() throws {
        let model = try GeneratedModel(contentsOf: GeneratorFixtures.libraryModel)
        let xml = try Data(contentsOf: GeneratorFixtures.libraryModel)
        let plist = try PropertyListSerialization.propertyList(from: xml, format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let reread = try GeneratedModel(propertyList: binary, fileName: "Library.plist")
        #expect(reread.model == model.model)
        #expect(reread.options == model.options)
        let first = ModelTypesGenerator(model: model, modelFileName: "Library.plist", access: .internal).source()
        let second = ModelTypesGenerator(model: reread, modelFileName: "Library.plist", access: .internal).source()
        #expect(first == second)
    }

    @Test func aModelThatGeneratesNothingGivesOnlyTheHeader() throws {
        let url = try GeneratorFixtures.modelFile("""
        <key>Tag</key><dict><key>table</key><string>tags</string>
        <key>properties</key><dict><key>uniqueID</key><string>string</string></dict></dict>
        """, fileName: "Tags.plist")
        let source = try GeneratorFixtures.generate(url)
        #expect(source.hasSuffix("// Tags.plist marks no object type with 'generate', so there is nothing here.\n"))
        #expect(!source.contains("import"))
    }

    @Test(arguments: ["struct", "class"])
    func aPropertyNamedRowIsReachedThroughSelf(kind: String) throws {
        let url = try GeneratorFixtures.modelFile("""
        <key>Cell</key><dict><key>table</key><string>cells</string><key>generate</key><true/>
        <key>kind</key><string>\(kind)</string>
        <key>properties</key><dict><key>uniqueID</key><string>int64</string><key>row</key><string>int64</string></dict></dict>
        """, fileName: "Grid.plist")
        let source = try GeneratorFixtures.generate(url)
        // A struct reads the row into its memberwise initializer, where `row:` is only a label.
        let read = kind == "struct" ? "            row: try row[\"row\"])\n" : "        self.row = try row[\"row\"]\n"
        #expect(source.contains(read))
        #expect(source.contains("        row[\"row\"] = self.row\n"))
    }

    @Test func aSharedClassSetsEachColumnAloneReachingMembersNamedLikeItsParametersThroughSelf() throws {
        let url = try GeneratorFixtures.modelFile("""
        <key>Cell</key><dict><key>table</key><string>cells</string><key>generate</key><true/>
        <key>kind</key><string>class</string><key>uniqued</key><true/>
        <key>properties</key><dict><key>uniqueID</key><string>int64</string><key>row</key><string>int64</string>
        <key>column</key><string>int64</string><key>label</key><string>string</string></dict></dict>
        """, fileName: "Grid.plist")
        let source = try GeneratorFixtures.generate(url)
        #expect(source.contains("""
            func update(column: String, from row: QSRow) throws -> Bool {
                switch column {
                case "column": self.column = try row["column"]
                case "label": label = try row["label"]
                case "row": self.row = try row["row"]
                default: return false
                }
                return true
            }
        """))
    }

    @Test func aStructReadsItsRowIntoTheMemberwiseInitializer() throws {
        let url = try GeneratorFixtures.modelFile("""
        <key>Tag</key><dict><key>table</key><string>tags</string><key>generate</key><true/>
        <key>properties</key><dict><key>uniqueID</key><string>string</string><key>name</key><string>string</string></dict></dict>
        """, fileName: "Tags.plist")
        let source = try GeneratorFixtures.generate(url)
        #expect(source.contains("""
            init(row: QSRow) throws {
                self.init(
                    uniqueID: try row["uniqueID"],
                    name: try row["name"])
            }
        """))
    }
}
