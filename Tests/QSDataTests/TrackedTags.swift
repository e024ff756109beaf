import QSData

/// A tag whose name the app sets, marking it: the random writes of `UnchangedInstanceTests` run
/// on each kind.
protocol RenamableTag: QSChangeTrackingObject where UniqueID == String {
    var name: String { get set }
    init(uniqueID: String, name: String)
}

extension RenamableTag {
    static var modelName: String { "Tag" }

    init(row: QSRow) throws {
        self.init(uniqueID: try row["uniqueID"], name: try row["name"])
    }

    func update(from row: QSRow) throws {
        name = try row["name"]
    }

    func encodeColumns(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
    }
}

/// A tag that marks what the app sets: a type without relationships, whose rows the store knows
/// by an epoch alone.
final class TrackedTag: RenamableTag {
    let uniqueID: String
    var name: String { didSet { changedProperties.insert("name", from: oldValue, to: name) } }
    var changedProperties = QSChangedProperties()
    /// How many times the store encoded the instance.
    private(set) var timesEncoded = 0

    init(uniqueID: String, name: String) {
        self.uniqueID = uniqueID
        self.name = name
    }

    func encode(to row: inout QSRowEncoder) {
        timesEncoded += 1
        encodeColumns(to: &row)
    }
}

/// A ``TrackedTag`` that also takes a new name alone (`update(column:from:)`), as generated
/// classes do: bulk updates patch its instances column by column rather than whole.
final class ColumnTrackedTag: RenamableTag {
    let uniqueID: String
    var name: String { didSet { changedProperties.insert("name", from: oldValue, to: name) } }
    var changedProperties = QSChangedProperties()

    init(uniqueID: String, name: String) {
        self.uniqueID = uniqueID
        self.name = name
    }

    func update(column: String, from row: QSRow) throws -> Bool {
        guard column == "name" else { return false }
        name = try row["name"]
        return true
    }

    func encode(to row: inout QSRowEncoder) {
        encodeColumns(to: &row)
    }
}
