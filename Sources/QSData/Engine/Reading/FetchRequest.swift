/// Which rows a fetch reads.
struct FetchRequest: Sendable {
    /// A join that narrows (and may rank) the rows, put before the WHERE clause: a search's
    /// ranked matches. Its placeholders come first in ``arguments``.
    var join: String?
    var condition: String?
    /// Reads every row afresh instead of returning the cached instance, and caches nothing.
    var bypassesCache = false
    var arguments: [SQLValue] = []
    var orderBy: String?
    var limit: Int?
    /// How to load relationships, overriding the model, by relationship name.
    var loading: [String: QSLoading] = [:]
    /// Values selected after the type's columns and handed back beside each object, in row
    /// order: a search's score and snippet, so that one statement both ranks and reads the rows.
    var extraColumns: [String] = []

    static func ids(_ ids: some Collection<QSAnyID>) -> FetchRequest {
        FetchRequest(condition: TableSQL.byIDs, arguments: [IDList.json(ids)])
    }

    /// The join, WHERE, ORDER BY and LIMIT clauses, with a leading space.
    var tail: String {
        var text = join ?? ""
        if let condition { text += " WHERE \(condition)" }
        if let orderBy { text += " ORDER BY \(orderBy)" }
        if let limit { text += " LIMIT \(limit)" }
        return text
    }
}
