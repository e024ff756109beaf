import QSData

/// The live objects of a table with a unique key (the model's `uniqueKey`), by their key as
/// sync compares it: case and runs of whitespace ignored. Two devices that each made "Paris"
/// offline made one object twice; when the second reaches a replica holding the first, the one
/// created earlier stays, the other is deleted, and lists that named it name the one that stays
/// (see ``RemoteApplier``). Every replica decides the same way, so all of them end with one.
///
/// Keys are unique within a space: the same name in two groups, or in a group and the
/// account's own objects, names two objects.
struct UniqueKeys {
    let column: String
    /// The group column of the table, if it shares objects in groups.
    let groupColumn: String?
    private var holders: [String: SQLValue] = [:]
    private var keys: [SQLValue: String] = [:]
    /// The group of each object that has one.
    private var groups: [SQLValue: String] = [:]

    /// The key `text` stands for.
    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// The keys of `table`'s rows; nil when the table has no unique key.
    init?(of table: SyncedTable, on connection: SQLiteConnection) throws {
        guard let column = table.uniqueKey else { return nil }
        self.column = column
        groupColumn = table.groupColumn
        let group = groupColumn.map(quoted) ?? "NULL"
        for row in try connection.fetchRows("SELECT \(quoted("uniqueID")), \(quoted(column)), \(group) FROM \(quoted(table.name))") where row.count == 3 {
            if case .text(let name) = row[2] { groups[row[0]] = name }
            if case .text(let text) = row[1] {
                let key = spaced(Self.normalized(text), groups[row[0]])
                holders[key] = row[0]
                keys[row[0]] = key
            }
        }
    }

    /// Another object holding the key `values` give the unique column, if one does.
    func holder(of values: [String: SyncValue], other id: SQLValue) -> SQLValue? {
        guard case .text(let text) = values[column], let holder = holders[spaced(Self.normalized(text), group(in: values, of: id))], holder != id
        else { return nil }
        return holder
    }

    /// Notes that `id` holds the key `values` give it (and no longer the one it held).
    mutating func note(_ values: [String: SyncValue], heldBy id: SQLValue) {
        guard case .text(let text) = values[column] else { return }
        let group = group(in: values, of: id)
        groups[id] = group
        let key = spaced(Self.normalized(text), group)
        if let old = keys[id], holders[old] == id { holders[old] = nil }
        holders[key] = id
        keys[id] = key
    }

    /// The group `values` name for the object, or the one it is known to have.
    private func group(in values: [String: SyncValue], of id: SQLValue) -> String? {
        guard let groupColumn else { return nil }
        switch values[groupColumn] {
        case .text(let group)?: return group
        case .null?: return nil
        default: return groups[id]
        }
    }

    /// A key within a group's objects, or the account's own.
    private func spaced(_ key: String, _ group: String?) -> String {
        guard let group else { return key }
        return group + "\u{0}" + key
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
