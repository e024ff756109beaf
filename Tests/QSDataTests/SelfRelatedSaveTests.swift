import Foundation
import QSData
import Testing

/// A type whose relationship lists objects of the same type, itself among them: a save reads the
/// object saved and the same object reached as its own child where they lie, both at once (see
/// `InPlace`), and writes its row once with every lookup row.
@MainActor
struct SelfRelatedSaveTests {
    @Test func anObjectListedAmongItsOwnChildrenIsSavedOnceWithItsLookupRows() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await SelfRelatedFixtures.openStore(url: url)
        let first = Step(uniqueID: 1, title: "first")
        let second = Step(uniqueID: 2, title: "second")
        first.seeAlso = [first, second]
        second.seeAlso = [first]
        try store.save([first, second])
        try await store.flush()

        // The lookup rows, in each parent's order (the order values themselves are spaced out).
        let rows = try await store.fetchRows("SELECT parentID, childID FROM stepLinks ORDER BY parentID, ix")
        #expect(rows == [[.integer(1), .integer(1)], [.integer(1), .integer(2)], [.integer(2), .integer(1)]])
        let steps = try await store.fetchRows("SELECT uniqueID, title FROM steps ORDER BY uniqueID")
        #expect(steps == [[.integer(1), .text("first")], [.integer(2), .text("second")]])

        // Unchanged, saved again: nothing to write.
        let again = try await store.recordStatements {
            try store.save([first, second])
            try await store.flush()
        }
        #expect(again.statements == [])
        try await store.close()
        // Checked with SQL rather than read back: eager loading can never finish a cycle (a step
        // listing itself), so a fetch throws instead (see `DeepRelationshipTests`).
    }
}

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
    </dict></dict></plist>
    """

    static let schemaSQL = """
    CREATE TABLE steps (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE stepLinks (parentID INTEGER NOT NULL, childID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (parentID, childID));
    """

    @MainActor
    static func openStore(url: URL) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(modelPlist.utf8), fileName: "Steps.plist"),
            schema: QSSchema(creationSQL: schemaSQL), types: [Step.self])
    }
}

final class Step: QSUpdatableObject {
    let uniqueID: Int64
    var title: String
    var seeAlso: [Step] = []

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
        row["title"] = title
        row.setRelated("seeAlso", seeAlso)
    }
}
