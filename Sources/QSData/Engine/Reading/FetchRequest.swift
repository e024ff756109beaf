/// Which rows a fetch reads.
struct FetchRequest: Sendable {
    var condition: String?
    /// Reads every row afresh instead of returning the cached instance, and caches nothing.
    var bypassesCache = false
    var arguments: [SQLValue] = []
    var orderBy: String?
    var limit: Int?
    /// How to load relationships, overriding the model, by relationship name.
    var loading: [String: QSLoading] = [:]

    static func ids(_ ids: some Collection<QSAnyID>) -> FetchRequest {
        FetchRequest(condition: TableSQL.byIDs, arguments: [IDList.json(ids)])
    }

    /// The WHERE, ORDER BY and LIMIT clauses, with a leading space.
    var tail: String {
        var text = ""
        if let condition { text += " WHERE \(condition)" }
        if let orderBy { text += " ORDER BY \(orderBy)" }
        if let limit { text += " LIMIT \(limit)" }
        return text
    }
}
