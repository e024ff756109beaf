/// One entry of the change log: rows of one table inserted, updated or deleted.
struct ChangeLogEntry: Sendable, Equatable {
    enum Kind: String, Sendable {
        case insert, update, delete
    }

    let seq: Int64
    let table: String
    let kind: Kind
    var ids: [QSAnyID]
    /// For an update, the columns (or relationship names) that changed; nil when any may have.
    let columns: Set<String>?
    /// The store that wrote the entry; nil when a trigger did (SQL outside a store's own writes).
    let writer: String?

    /// Every entry after a position, one row per uniqueID (SQLite reads the JSON arrays).
    static let selectSQL = """
        SELECT c.seq, c.tableName, c.kind, c.columns, c.writer, j.value
        FROM qsdata_changes AS c, json_each(c.ids) AS j WHERE c.seq > ? ORDER BY c.seq
        """

    /// The entries of ``selectSQL``'s rows, in order. A row no store or trigger could have
    /// written (someone else's SQL) is skipped.
    static func entries(fromRows rows: [[SQLValue]]) -> [ChangeLogEntry] {
        var entries: [ChangeLogEntry] = []
        for row in rows {
            guard row.count == 6, case .integer(let seq) = row[0], case .text(let table) = row[1],
                  case .text(let kindName) = row[2], let kind = Kind(rawValue: kindName),
                  let id = QSAnyID(sqlValue: row[5])
            else { continue }
            if let last = entries.last, last.seq == seq {
                entries[entries.count - 1].ids.append(id)
                continue
            }
            var columns: Set<String>?
            if case .text(let list) = row[3] { columns = Set(list.split(separator: ",").map(String.init)) }
            var writer: String?
            if case .text(let name) = row[4] { writer = name }
            entries.append(ChangeLogEntry(seq: seq, table: table, kind: kind, ids: [id], columns: columns, writer: writer))
        }
        return entries
    }
}
