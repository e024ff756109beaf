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
    /// - Statements: one, which ranks the matches and reads their rows, for a type without
    ///   relationships. A type with relationships costs what a fetch costs (its lookup rows, then
    ///   the rows) when no instance of it is in memory; otherwise one statement ranks the matches
    ///   and the usual fetch by uniqueID reads those not in memory, so that results already held
    ///   cost that one statement.
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
        let valuesPerRow = query.request.extraColumns.count
        if binding.description.relationships.isEmpty || binding.cache.isEmpty {
            let fetched = try await fetchRowsNumbered(binding, query.request)
            var results: [QSSearchResult<Object>] = []
            results.reserveCapacity(fetched.objects.count)
            for (position, object) in fetched.objects.enumerated() {
                let start = position * valuesPerRow
                results.append(Self.result(object, fetched.extraValues[start ..< start + valuesPerRow]))
            }
            return results
        }
        // Reading a held instance's lookup rows again would cost more statements than ranking
        // first and reading only the rows not in memory.
        let ranked = try await performRead { connection in
            try connection.fetchRows(query.rankedIDs, query.request.arguments)
        }
        var ids: [Object.UniqueID] = []
        var rankings: [Object.UniqueID: ArraySlice<SQLValue>] = [:]
        for row in ranked {
            guard let id = QSAnyID(sqlValue: row[0]).flatMap(Object.UniqueID.init(anyID:)) else { continue }
            ids.append(id)
            rankings[id] = row.dropFirst()
        }
        return try await fetch(type, ids: ids).compactMap { object in
            rankings[object.uniqueID].map { Self.result(object, $0) }
        }
    }

    /// A search result from its object and the values selected after it: the score, then the
    /// snippet when one was asked for.
    private static func result<Object>(_ object: Object, _ ranking: ArraySlice<SQLValue>) -> QSSearchResult<Object> {
        let score: Double = if let first = ranking.first, case .real(let value) = first { value } else { 0 }
        let passage: String? = if ranking.count > 1, case .text(let value) = ranking[ranking.startIndex + 1] { value } else { nil }
        return QSSearchResult(object: object, snippet: passage, score: score)
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
