/// The statement that ranks a type's rows for a full-text search.
///
/// The FTS5 table is queried in a subquery, so the app's condition sees only the type's own
/// table: its columns need no qualifying even when the index has columns of the same names.
struct SearchSQL {
    let sql: String
    let arguments: [SQLValue]

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
        var sql = "SELECT \(content).\(quoted("uniqueID")), qs_match.qs_score\(snippet == nil ? "" : ", qs_match.qs_snippet")"
        sql += " FROM (SELECT rowid AS qs_rowid, bm25(\(fts)) AS qs_score\(snippetColumn) FROM \(fts) WHERE \(fts) MATCH ?) AS qs_match"
        sql += " JOIN \(content) ON \(content).rowid = qs_match.qs_rowid"
        if let condition { sql += " WHERE (\(condition))" }
        sql += " ORDER BY qs_match.qs_score"
        if let limit { sql += " LIMIT \(max(limit, 0))" }
        self.sql = sql
        self.arguments = snippetArguments + [.text(match)] + arguments
    }
}
