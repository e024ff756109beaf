import Foundation
import QSData

/// The synced tables' property and relationship names as the file last synced them, kept in
/// `qsdata_sync_state`, with every rename the app has declared since the file began syncing.
struct SchemaHistory: Codable, Equatable {
    /// By table, the names of its synced columns and relationships.
    var parts: [String: [String]]
    /// By table, each old name and the name it has now.
    var renames: [String: [String: String]] = [:]

    init(parts: [String: [String]], renames: [String: [String: String]] = [:]) {
        self.parts = parts
        self.renames = renames
    }

    init(_ schema: SyncedSchema) {
        parts = schema.tables.mapValues(\.partNames)
    }

    /// Checks the model's synced names against the file's, records the model's, and returns
    /// the history in force and, by table, the names new since (`*` for a table new to sync).
    static func update(to schema: SyncedSchema, changes: QSSyncSchemaChanges, on connection: SQLiteConnection) throws -> (history: SchemaHistory, added: [String: Set<String>]) {
        var current = SchemaHistory(schema)
        guard case .text(let text) = try SyncStateTables.value(.schema, on: connection),
              let stored = try? JSONDecoder().decode(SchemaHistory.self, from: Data(text.utf8))
        else {
            try save(current, on: connection)
            return (current, [:])
        }
        current.renames = stored.renames
        var added: [String: Set<String>] = [:]
        for (table, names) in current.parts {
            let before = Set(stored.parts[table] ?? [])
            let new = Set(names).subtracting(before)
            if stored.parts[table] == nil { added[table] = ["*"] } else if !new.isEmpty { added[table] = new }
        }
        for (table, names) in stored.parts.sorted(by: { $0.key < $1.key }) {
            guard let now = current.parts[table].map(Set.init) else {
                if changes.removed[table]?.contains("*") == true { continue }
                throw QSSyncError.syncedPropertyRemoved(table: table, property: "*")
            }
            for name in names.sorted() where !now.contains(name) {
                if let renamed = changes.renamed[table]?.first(where: { $0.value == name })?.key, now.contains(renamed) {
                    // Older names that led here now lead to the new one.
                    for (old, target) in current.renames[table] ?? [:] where target == name { current.renames[table]?[old] = renamed }
                    current.renames[table, default: [:]][name] = renamed
                    added[table]?.remove(renamed)
                } else if changes.removed[table]?.contains(name) != true {
                    throw QSSyncError.syncedPropertyRemoved(table: table, property: name)
                }
            }
        }
        if current != stored { try save(current, on: connection) }
        return (current, added.filter { !$0.value.isEmpty })
    }

    private static func save(_ history: SchemaHistory, on connection: SQLiteConnection) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try SyncStateTables.set(.schema, to: .text(String(decoding: try encoder.encode(history), as: UTF8.self)), on: connection)
    }

    /// `name` of a part of `table` as the model calls it now (a list part's relationship renamed too).
    func currentName(of name: String, in table: String) -> String {
        guard let renames = renames[table], !renames.isEmpty else { return name }
        if let renamed = renames[name] { return renamed }
        if let part = SyncListPart(name: name), let list = renames[part.list] {
            return SyncListPart(list: list, child: part.child, kind: part.kind).name
        }
        return name
    }
}
