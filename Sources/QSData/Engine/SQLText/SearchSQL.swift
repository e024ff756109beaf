/// A full-text search as a fetch: the FTS5 index's matches for a query, ranked by `bm25`, joined
/// to the type's table, so that one statement both ranks the rows and reads them.
///
/// The FTS5 table is queried in a subquery, so the app's condition sees only the type's own
/// table: its columns need no qualifying even when the index has columns of the same names.
struct SearchSQL {
    /// Selects the matching rows best first, each row's score (and snippet) after the type's
    /// columns (``FetchRequest/extraColumns``).
    let request: FetchRequest
    /// Selects only each match's uniqueID followed by the same score (and snippet), best first.
    let rankedIDs: String

    /// - Parameters:
    ///   - match: an FTS5 query made by ``SearchQueryText``.
    ///   - condition: SQL over the type's table, with `?` placeholders for `arguments`.
    init(search: QSSearchDescription, table: String, match: String, condition: String?, arguments: [SQLValue],
         limit: Int?, snippet: QSSnippetStyle?) throws {
        let fts = quoted(search.table)
        let content = quoted(table)
        var snippetColumn = ""
        var snippetArguments: [SQLValue] = []
        if let snippet {
            var columnIndex = -1
            if let name = snippet.column {
                guard let index = search.columns.firstIndex(of: name) else {
                    throw QSDataError.unknownColumn(type: search.table, column: name)
                }
                columnIndex = index
            }
            snippetColumn = ", snippet(\(fts), ?, ?, ?, ?, ?) AS qs_snippet"
            let tokens = Int64(min(max(snippet.maxTokens, 1), 64))
            snippetArguments = [.integer(Int64(columnIndex)), .text(snippet.before), .text(snippet.after), .text(snippet.ellipsis), .integer(tokens)]
        }
        var request = FetchRequest(
            condition: condition.map { "(\($0))" }, arguments: snippetArguments + [.text(match)] + arguments,
            orderBy: "qs_match.qs_score", limit: limit.map { max($0, 0) })
        request.join = " JOIN (SELECT rowid AS qs_rowid, bm25(\(fts)) AS qs_score\(snippetColumn) FROM \(fts) WHERE \(fts) MATCH ?) AS qs_match"
            + " ON \(content).rowid = qs_match.qs_rowid"
        request.extraColumns = snippet == nil ? ["qs_match.qs_score"] : ["qs_match.qs_score", "qs_match.qs_snippet"]
        self.request = request
        rankedIDs = "SELECT \(content).\(quoted("uniqueID")), \(request.extraColumns.joined(separator: ", ")) FROM \(content)\(request.tail)"
    }
}
