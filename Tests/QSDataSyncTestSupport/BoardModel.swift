// A small synced model for the sync tests: boards with an ordered list of cards (deleting a
// board deletes its cards), a board's local draft that never leaves the device, and settings
// that don't sync at all.
import Foundation
import QSData

public final class Card: QSUpdatableObject {
    public let uniqueID: Int64
    public var title: String
    public var done: Bool
    public var points: Double?

    public init(uniqueID: Int64, title: String, done: Bool = false, points: Double? = nil) {
        self.uniqueID = uniqueID
        self.title = title
        self.done = done
        self.points = points
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        done = try row["done"]
        points = try row["points"]
    }

    public func update(from row: QSRow) throws {
        title = try row["title"]
        done = try row["done"]
        points = try row["points"]
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["done"] = done
        row["points"] = points
    }
}

public final class Board: QSUpdatableObject {
    public let uniqueID: Int64
    public var name: String
    /// Stays on this device (the model lists it in `localProperties`).
    public var draft: String?
    public var cards: [Card]

    public init(uniqueID: Int64, name: String, draft: String? = nil, cards: [Card] = []) {
        self.uniqueID = uniqueID
        self.name = name
        self.draft = draft
        self.cards = cards
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
        draft = try row["draft"]
        cards = try row.related("cards")
    }

    public func update(from row: QSRow) throws {
        name = try row["name"]
        draft = try row["draft"]
        cards = try row.related("cards")
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
        row["draft"] = draft
        row.setRelated("cards", cards)
    }
}

/// Not synced: the model doesn't mark it.
public struct Setting: QSDataObject, Equatable {
    public let uniqueID: String
    public var value: String

    public init(uniqueID: String, value: String) {
        self.uniqueID = uniqueID
        self.value = value
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        value = try row["value"]
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["value"] = value
    }
}

public enum BoardModel {
    public static let model = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>
          <key>Board</key><dict>
            <key>table</key><string>boards</string>
            <key>uniqued</key><true/>
            <key>synced</key><true/>
            <key>localProperties</key><array><string>draft</string></array>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>name</key><string>string</string>
              <key>draft</key><string>string?</string>
            </dict>
            <key>relationships</key><dict>
              <key>cards</key><dict>
                <key>table</key><string>boardCards</string>
                <key>parentID</key><string>boardID</string>
                <key>childID</key><string>cardID</string>
                <key>childClass</key><string>Card</string>
                <key>indexKey</key><string>ix</string>
                <key>deleteRule</key><string>cascade</string>
              </dict>
            </dict>
          </dict>
          <key>Card</key><dict>
            <key>table</key><string>cards</string>
            <key>uniqued</key><true/>
            <key>synced</key><true/>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>title</key><string>string</string>
              <key>done</key><string>boolean</string>
              <key>points</key><string>double?</string>
            </dict>
          </dict>
          <key>Setting</key><dict>
            <key>table</key><string>settings</string>
            <key>properties</key><dict>
              <key>uniqueID</key><string>string</string>
              <key>value</key><string>string</string>
            </dict>
          </dict>
        </dict></dict></plist>
        """

    public static let schema = """
        CREATE TABLE boards (uniqueID INTEGER PRIMARY KEY, name TEXT NOT NULL, draft TEXT);
        CREATE TABLE cards (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, points REAL);
        CREATE TABLE boardCards (boardID INTEGER NOT NULL, cardID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (boardID, cardID));
        CREATE INDEX boardCardsByCard ON boardCards (cardID);
        CREATE TABLE settings (uniqueID TEXT PRIMARY KEY, value TEXT NOT NULL);
        """

    /// The model with cards named by their titles (the model's `uniqueKey`): two cards titled
    /// alike, ignoring case and spacing, are one.
    public static let modelWithUniqueTitles = model.replacingOccurrences(
        of: "<key>table</key><string>cards</string>", with: "<key>table</key><string>cards</string><key>uniqueKey</key><string>title</string>")

    /// The model with blobs: a card's cover (downloaded with the card) and a board's
    /// background (downloaded when asked for). SQL only: the Swift types don't read them.
    public static let modelWithBlobs = model
        .replacingOccurrences(of: "<key>points</key><string>double?</string>", with: "<key>points</key><string>double?</string><key>cover</key><string>data?</string>")
        .replacingOccurrences(of: "<key>draft</key><string>string?</string>", with: "<key>draft</key><string>string?</string><key>background</key><string>data?</string>")
        .replacingOccurrences(of: "<key>table</key><string>cards</string>", with: "<key>table</key><string>cards</string><key>syncedBlobs</key><dict><key>cover</key><string>eager</string></dict>")
        .replacingOccurrences(of: "<key>table</key><string>boards</string>", with: "<key>table</key><string>boards</string><key>syncedBlobs</key><dict><key>background</key><string>lazy</string></dict>")
    public static let schemaWithBlobs = schema + "ALTER TABLE cards ADD COLUMN cover BLOB; ALTER TABLE boards ADD COLUMN background BLOB;"

    /// The model with boards and cards shared in groups: each names its group in `team` (the
    /// model's `syncGroup`; NULL: the account's own). SQL only: the Swift types don't read it.
    public static let modelWithGroups = model
        .replacingOccurrences(of: "<key>points</key><string>double?</string>", with: "<key>points</key><string>double?</string><key>team</key><string>string?</string>")
        .replacingOccurrences(of: "<key>draft</key><string>string?</string>", with: "<key>draft</key><string>string?</string><key>team</key><string>string?</string>")
        .replacingOccurrences(of: "<key>table</key><string>cards</string>", with: "<key>table</key><string>cards</string><key>syncGroup</key><string>team</string>")
        .replacingOccurrences(of: "<key>table</key><string>boards</string>", with: "<key>table</key><string>boards</string><key>syncGroup</key><string>team</string>")
    public static let schemaWithGroups = schema + "ALTER TABLE cards ADD COLUMN team TEXT; ALTER TABLE boards ADD COLUMN team TEXT;"

    /// Opens (creating when new) a board store at `url`.
    @MainActor
    public static func openStore(
        at url: URL, model: String = BoardModel.model, schema: String = BoardModel.schema,
        types: [any QSDataObject.Type] = [Board.self, Card.self, Setting.self]
    ) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(model.utf8), fileName: "Boards.plist"), schema: QSSchema(creationSQL: schema), types: types)
    }
}
