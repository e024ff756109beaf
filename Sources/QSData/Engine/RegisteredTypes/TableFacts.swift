/// What the store learns of a type's table from the schema when it opens, beyond what the model
/// says.
final class TableFacts: Sendable {
    private struct Facts {
        var columnsMissingForInsert: [String] = []
        var uniqueIDIsRowID = false
    }

    private let storage = LockedState(Facts())

    /// The NOT NULL columns without a default that the type has no property for: when there are
    /// any, the type can update rows but not insert them.
    var columnsMissingForInsert: [String] {
        get { storage.withLock { $0.columnsMissingForInsert } }
        set { storage.withLock { $0.columnsMissingForInsert = newValue } }
    }

    /// Whether the uniqueID column is the table's rowid (declared `INTEGER PRIMARY KEY`), so that
    /// SQLite names the rows a statement inserts or deletes by their uniqueIDs (see
    /// ``SQLiteConnection/rowIDs(_:in:by:)``).
    var uniqueIDIsRowID: Bool {
        get { storage.withLock { $0.uniqueIDIsRowID } }
        set { storage.withLock { $0.uniqueIDIsRowID = newValue } }
    }
}
