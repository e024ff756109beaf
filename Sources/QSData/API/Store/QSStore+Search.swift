/// Full-text search over the types whose data model declares a `search` index (FTS5).
///
/// The index is kept current by triggers in the app's schema SQL, not by the store: that way
/// every write reaches it — saves, one-statement bulk updates and deletes, the app's own SQL,
/// even another process — at no extra statement, and the store checks at open that the triggers
/// are there. See <doc:SearchingText>.
extension QSStore {
    /// The objects whose indexed text matches what a person typed, best match first (`bm25`).
    ///
    /// Any text is safe: each word is searched for as written, so quotes, FTS5 operators and
    /// unbalanced parentheses never cause an SQL error; text with no word in it finds nothing
    /// and runs no SQL.
    /// ```swift
    /// let results = try await store.search(Note.self, for: "swift concurrency",
    ///                                      where: "archived = 0", snippet: QSSnippetStyle())
    /// for result in results { print(result.snippet ?? result.object.text) }
    /// ```
    /// - Parameters:
    ///   - type: a type whose data model declares `search`.
    ///   - text: the words to find; every word must occur.
    ///   - condition: SQL over the type's table narrowing the results, with `?` placeholders.
    ///   - arguments: the values of the condition's placeholders.
    ///   - limit: the most results to return; nil for all of them.
    ///   - snippet: asks for the matching passage of each result, marked up this way.
    ///   - matchingPrefixes: the last word also matches words it begins (search as you type).
    /// - Statements: one to rank, then the usual fetch by uniqueID for the objects not in memory.
    /// - Throws: ``QSDataError/notSearchable(type:)`` when the model declares no index for the type.
    public func search<Object: QSDataObject>(
        _ type: Object.Type, for text: String, where condition: String? = nil, arguments: [SQLValue] = [],
        limit: Int? = 50, snippet: QSSnippetStyle? = nil, matchingPrefixes: Bool = true
    ) async throws -> [QSSearchResult<Object>] {
        let binding = try registry.binding(for: type)
        guard let search = binding.description.search else { throw QSDataError.notSearchable(type: Object.modelName) }
        guard let match = SearchQueryText.ftsQuery(for: text, matchingPrefixes: matchingPrefixes) else { return [] }
        let query = try SearchSQL(
            search: search, table: binding.description.table, match: match,
            condition: condition, arguments: arguments, limit: limit, snippet: snippet)
        let ranked = try await performRead { connection in
            try connection.fetchRows(query.sql, query.arguments)
        }
        var ids: [Object.UniqueID] = []
        var scores: [Object.UniqueID: (score: Double, snippet: String?)] = [:]
        for row in ranked {
            guard let id = QSAnyID(sqlValue: row[0]).flatMap(Object.UniqueID.init(anyID:)) else { continue }
            let score: Double = if case .real(let value) = row[1] { value } else { 0 }
            let passage: String? = if row.count > 2, case .text(let value) = row[2] { value } else { nil }
            ids.append(id)
            scores[id] = (score, passage)
        }
        return try await fetch(type, ids: ids).compactMap { object in
            scores[object.uniqueID].map { QSSearchResult(object: object, snippet: $0.snippet, score: $0.score) }
        }
    }

    /// Rebuilds a type's search index from its table. Needed after filling the table by means
    /// that bypass the triggers (such as a migration that adds the index to existing rows), and
    /// after `VACUUM` when the table's primary key is not an `INTEGER PRIMARY KEY` (VACUUM may
    /// renumber such a table's rowids, which the index refers to).
    public func rebuildSearchIndex<Object: QSDataObject>(of type: Object.Type) async throws {
        let binding = try registry.binding(for: type)
        guard let search = binding.description.search else { throw QSDataError.notSearchable(type: Object.modelName) }
        let fts = quoted(search.table)
        try await writeAndWait { connection in
            try connection.execute("INSERT INTO \(fts)(\(fts)) VALUES ('rebuild')")
        }
    }
}
