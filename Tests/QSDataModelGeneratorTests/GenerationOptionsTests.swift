import Foundation
import QSData
import QSDataModelCodeGen
import Testing

/// The generator reads each generated type's keys from the model file, with their defaults.
@Suite struct GenerationOptionsTests {
    @Test func theGenerationKeysAreReadWithTheirDefaults() throws {
        let url = try GeneratorFixtures.modelFile("""
        <key>Tag</key><dict><key>table</key><string>tags</string><key>uniqued</key><true/><key>generate</key><true/>
        <key>properties</key><dict><key>uniqueID</key><string>string</string><key>name</key><string>string</string></dict></dict>
        <key>Place</key><dict><key>table</key><string>places</string><key>generate</key><true/>
        <key>kind</key><string>class</string><key>setterAccess</key><string>internal</string>
        <key>conformances</key><array><string>Hashable</string></array>
        <key>swiftNames</key><dict><key>lat</key><string>latitude</string></dict>
        <key>swiftTypes</key><dict><key>tags</key><string>Set&lt;String&gt;</string></dict>
        <key>properties</key><dict><key>uniqueID</key><string>int64</string><key>lat</key><string>double</string>
        <key>tags</key><string>json</string></dict></dict>
        <key>Note</key><dict><key>table</key><string>notes</string>
        <key>properties</key><dict><key>uniqueID</key><string>int64</string></dict></dict>
        """, fileName: "Places.plist")
        let loaded = try GeneratedModel(contentsOf: url)
        #expect(loaded.options["Tag"] == GeneratedTypeOptions(kind: .class, swiftNames: [:], swiftTypes: [:], conformances: [], setterAccess: .public))
        #expect(loaded.options["Place"] == GeneratedTypeOptions(
            kind: .class, swiftNames: ["lat": "latitude"], swiftTypes: ["tags": "Set<String>"],
            conformances: ["Hashable"], setterAccess: .internal))
        #expect(loaded.options["Note"] == nil, "a type without 'generate' is the app's own")
        #expect(loaded.swiftTypeName(of: "Note") == "Note")
    }
}
