import Foundation
import QSData
import QSDataModelCodeGen
import Testing

/// A column's SQL `DEFAULT` becomes the memberwise initializer's default argument when it is a
/// literal the property's Swift type holds; anything else leaves the parameter required.
@Suite struct DefaultArgumentTests {
    private static let model = """
        <key>Item</key><dict><key>table</key><string>items</string><key>generate</key><true/>
        <key>swiftTypes</key><dict><key>link</key><string>URL</string></dict>
        <key>properties</key><dict><key>uniqueID</key><string>int64</string>
        <key>count</key><string>int64</string><key>ratio</key><string>double</string>
        <key>quote</key><string>string</string><key>flag</key><string>boolean</string>
        <key>made</key><string>date</string><key>stamped</key><string>date</string>
        <key>link</key><string>string</string><key>memo</key><string>string?</string>
        <key>label</key><string>string?</string></dict></dict>
        """

    private static let schema = """
        CREATE TABLE items (
            uniqueID INTEGER PRIMARY KEY,
            count INTEGER NOT NULL DEFAULT -3,
            ratio REAL NOT NULL DEFAULT (2.5e1),
            quote TEXT NOT NULL DEFAULT 'it''s "here"\\',
            flag BOOLEAN NOT NULL DEFAULT TRUE,
            made DATE NOT NULL DEFAULT 1700000000,
            stamped DATE NOT NULL DEFAULT CURRENT_TIMESTAMP,
            link TEXT NOT NULL DEFAULT 'https://example.com',
            memo TEXT DEFAULT NULL,
            label TEXT DEFAULT 'none'
        );
        """

    @Test func literalsBecomeSwiftValuesAndTheRestStaysRequired() throws {
        let url = try GeneratorFixtures.modelFile(Self.model, fileName: "Items.plist")
        try Data(Self.schema.utf8).write(to: url.deletingPathExtension().appendingPathExtension("sql"))
        let source = try GeneratorFixtures.generate(url)
        #expect(source.contains("""
                init(
                    uniqueID: Int64,
                    count: Int64 = -3,
                    flag: Bool = true,
                    label: String? = "none",
                    link: URL,
                    made: Date = Date(timeIntervalSince1970: 1700000000),
                    memo: String? = nil,
                    quote: String = "it's \\"here\\"\\\\",
                    ratio: Double = 2.5e1,
                    stamped: Date
                ) {
            """), "\(source)")
    }

    @Test func theGeneratorReadsTheSchemaAndMigrationsBesideTheModel() throws {
        let url = try GeneratorFixtures.modelFile("""
            <key>Item</key><dict><key>table</key><string>items</string><key>generate</key><true/>
            <key>properties</key><dict><key>uniqueID</key><string>int64</string><key>count</key><string>int64</string></dict></dict>
            """, fileName: "Items.plist")
        let folder = url.deletingLastPathComponent()
        try Data("CREATE TABLE items (uniqueID INTEGER PRIMARY KEY);".utf8).write(to: folder.appendingPathComponent("Items.sql"))
        let migrations = folder.appendingPathComponent("ItemsMigrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        try Data("ALTER TABLE items ADD COLUMN count INTEGER NOT NULL DEFAULT 7;".utf8)
            .write(to: migrations.appendingPathComponent("1-add-count.sql"))
        let output = folder.appendingPathComponent("Items+Generated.swift")
        let run = try GeneratorFixtures.runGenerator([url.path, "--output", output.path], output: output)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.output?.contains("init(uniqueID: Int64, count: Int64 = 7) {") == true, "\(run.output ?? "")")
    }

    @Test func aSchemaThatFailsFailsTheGenerator() throws {
        let url = try GeneratorFixtures.modelFile("""
            <key>Item</key><dict><key>table</key><string>items</string><key>generate</key><true/>
            <key>properties</key><dict><key>uniqueID</key><string>int64</string></dict></dict>
            """, fileName: "Items.plist")
        let schema = url.deletingPathExtension().appendingPathExtension("sql")
        try Data("CREATE TABLE items (uniqueID INTEGER PRIMARY KEY".utf8).write(to: schema)
        let output = url.deletingLastPathComponent().appendingPathComponent("Items+Generated.swift")
        let run = try GeneratorFixtures.runGenerator([url.path, "--output", output.path], output: output)
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("\(schema.path): error: "), "\(run.standardError)")
        #expect(run.output == nil)
    }
}
