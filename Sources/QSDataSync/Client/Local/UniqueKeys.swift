import QSData

/// The live objects of a table with a unique key (the model's `uniqueKey`), by their key as
/// sync compares it: case and runs of whitespace ignored. Two devices that each made "Paris"
/// offline made one object twice; when the second reaches a replica holding the first, the one
/// created earlier stays, the other is deleted, and lists that named it name the one that stays
/// (see ``RemoteApplier``). Every replica decides the same way, so all of them end with one.
struct UniqueKeys {
    let column: String
    private var holders: [String: SQLValue] = [:]
    private var keys: [SQLValue: String] = [:]

    /// The key `text` stands for.
    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// The keys of `table`'s rows; nil when the table has no unique key.
    init?(of table: SyncedTable, on connection: SQLiteConnection) throws {
        guard let column = table.uniqueKey else { return nil }
        self.column = column
        for row in try connection.fetchRows("SELECT \(quoted("uniqueID")), \(quoted(column)) FROM \(quoted(table.name))") where row.count == 2 {
            if case .text(let text) = row[1] {
                holders[Self.normalized(text)] = row[0]
                keys[row[0]] = Self.normalized(text)
            }
        }
    }

    /// Another object holding the key `values` give the unique column, if one does.
    func holder(of values: [String: SyncValue], other id: SQLValue) -> SQLValue? {
        guard case .text(let text) = values[column], let holder = holders[Self.normalized(text)], holder != id else { return nil }
        return holder
    }

    /// Notes that `id` holds the key `values` give it (and no longer the one it held).
    mutating func note(_ values: [String: SyncValue], heldBy id: SQLValue) {
        guard case .text(let text) = values[column] else { return }
        if let old = keys[id], holders[old] == id { holders[old] = nil }
        holders[Self.normalized(text)] = id
        keys[id] = Self.normalized(text)
    }

    /// Whether the object created at `stamp` with `id` stays when it meets the one created at
    /// `otherStamp` with `otherID`: the earlier creation does (the smaller ID when they tie).
    static func stays(_ id: SQLValue, created stamp: SyncStamp?, over otherID: SQLValue, created otherStamp: SyncStamp?) -> Bool {
        switch (stamp, otherStamp) {
        case (let mine?, let theirs?) where mine != theirs: mine < theirs
        case (.some, nil): true
        case (nil, .some): false
        default: (SyncID(sqlValue: id)?.json ?? "") < (SyncID(sqlValue: otherID)?.json ?? "")
        }
    }
}
