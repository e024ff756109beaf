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
    /// How many uniqueIDs the request names, for a fetch by uniqueIDs.
    var idCount: Int?

    /// At most this many rows make a short read (see ``isShort``).
    static let shortReadRows = 100

    static func ids(_ ids: some Collection<QSAnyID>) -> FetchRequest {
        FetchRequest(condition: TableSQL.byIDs, arguments: [IDList.json(ids)], idCount: ids.count)
    }

    /// Whether the request reads at most ``shortReadRows`` rows of its type (a limit, or that many
    /// uniqueIDs): short enough to run on the caller's thread when the queue is idle, where two
    /// thread switches would cost more than the read.
    var isShort: Bool {
        min(limit ?? .max, idCount ?? .max) <= Self.shortReadRows
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
