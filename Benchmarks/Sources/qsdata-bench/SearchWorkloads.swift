import Foundation
import QSData
import CSQLiteBench

/// Full-text search against LIKE, and what keeping a search index current costs a large save.
extension Workloads {
    nonisolated static let rawLike = "raw sqlite3 LIKE"
    nonisolated static let qsdataLike = "QSData fetch LIKE"
    nonisolated static let rawWithIndex = "raw sqlite3 + FTS5 index"
    nonisolated static let qsdataWithIndex = "QSData + FTS5 index"
    /// How many results each search returns.
    nonisolated static let searchLimit = 20

    /// A closed database holding `count` articles and their FTS5 title index.
    func searchableArticlesTemplate(_ count: Int) throws -> String {
        let path = try emptyDatabase("search-template")
        let db = try RawDatabase(path: path)
        try db.execute(BenchModel.searchSQL())
        try RawArticles.insert((0..<count).map(SampleData.article), in: db)
        return path
    }

    // MARK: Searching: the 20 best articles for a word, of 100,000

    /// FTS5 ranks the matches with bm25 through its index; LIKE reads every title and sorts the
    /// matches by date (it has no ranking). Each returns the 20 best rows with every column.
    func searchArticles(for word: String, label: String) async throws -> [BenchResult] {
        let total = sizes.articles
        let limit = Self.searchLimit
        let workload = "\(label) (\"\(word)\") in \(total) article titles, best \(limit)"
        let path = try searchableArticlesTemplate(total)
        defer { harness.deleteDatabase(path) }
        let raw = try RawDatabase(path: path)
        let store = try await BenchModel.openStore(path, searchable: true)
        let columns = RawArticles.columns.split(separator: ",").map { "articles.\($0.trimmingCharacters(in: .whitespaces))" }.joined(separator: ", ")
        let ftsSQL = """
            SELECT \(columns) FROM (SELECT rowid AS r, bm25(articlesSearch) AS score FROM articlesSearch WHERE articlesSearch MATCH ?1) \
            JOIN articles ON articles.uniqueID = r ORDER BY score LIMIT \(limit)
            """
        let likeSQL = "SELECT \(RawArticles.columns) FROM articles WHERE title LIKE ?1 ORDER BY datePublished DESC LIMIT \(limit)"
        let pattern = "%\(word)%"
        let expected = try rawRows(raw, likeSQL, pattern)
        var ftsCount = 0
        var likeCount = 0
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {}) { ftsCount = try self.rawRows(raw, ftsSQL, "\"\(word)\"*") }),
            (Self.rawLike, harness.trial(setup: {}) { likeCount = try self.rawRows(raw, likeSQL, pattern) }),
            (Impl.qsdata, harness.trial(setup: {}) {
                let results = try await store.search(Article.self, for: word, limit: limit)
                try self.check(results.count == ftsCount, "QSData search found \(results.count), raw \(ftsCount)")
            }),
            (Self.qsdataLike, harness.trial(setup: {}) {
                let articles = try await store.fetch(
                    Article.self, where: "title LIKE ?", arguments: [.text(pattern)], orderBy: "datePublished DESC", limit: limit)
                try self.check(articles.count == likeCount, "QSData LIKE found \(articles.count), raw \(likeCount)")
            }),
        ], threading: .oneAtATime)
        // FTS matches words ("4217" and words it begins); LIKE matches substrings ("14217" too), so
        // only common words give both the same rows.
        try check(ftsCount > 0 && expected > 0, "FTS found \(ftsCount), LIKE \(expected)")
        let log = try await store.recordStatements { _ = try await store.search(Article.self, for: word, limit: limit) }
        try await store.close()
        let ftsMedian = Statistics.median((samples[Impl.qsdata] ?? []).sorted())
        let likeMedian = Statistics.median((samples[Self.qsdataLike] ?? []).sorted())
        let speedup = ftsMedian > 0 ? String(format: "%.1f×", likeMedian / ftsMedian) : "?"
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: 1, note: "FTS5 MATCH, ORDER BY bm25"),
            harness.result(workload, Self.rawLike, samples[Self.rawLike] ?? [], statements: 1, note: "full scan, ORDER BY date"),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], statements: log.count,
                           note: "store.search: \(speedup) faster than QSData LIKE"),
            harness.result(workload, Self.qsdataLike, samples[Self.qsdataLike] ?? [], statements: 1, note: "store.fetch(where: title LIKE ?)"),
        ]
    }

    /// Runs a query binding one text argument; returns the number of rows, every column read.
    private func rawRows(_ db: RawDatabase, _ sql: String, _ argument: String) throws -> Int {
        let statement = try db.prepare(sql)
        defer { sqlite3_finalize(statement) }
        rawBind(statement, 1, argument)
        var rows = 0
        while try db.stepRow(statement) {
            _ = sqlite3_column_int64(statement, 0)
            _ = rawText(statement, 1)
            _ = rawText(statement, 2)
            _ = rawText(statement, 3)
            _ = sqlite3_column_double(statement, 4)
            rows += 1
        }
        return rows
    }

    // MARK: The large save again, with the notes' text indexed by triggers

    /// The large save of new notes into a schema whose notes' text has an FTS5 index kept by triggers, beside the
    /// same save without it: the difference is what keeping search current costs.
    func saveNotesWithSearchIndex() async throws -> [BenchResult] {
        let count = sizes.savedNotes
        let workload = "save \(count) notes, with and without the text index"
        let values = noteValues(count)
        func database(_ name: String, indexed: Bool) throws -> String {
            let path = try emptyDatabase(name)
            if indexed { try RawDatabase(path: path).execute(BenchModel.searchSQL()) }
            return path
        }
        func rawTrial(indexed: Bool) -> Harness.Trial {
            harness.trial(setup: {
                let tags = SampleData.tags.map(RawTag.init)
                let path = try database("save-search-index-raw", indexed: indexed)
                return (path: path, notes: values.map { RawNote($0, tags: tags) }, db: try RawDatabase(path: path))
            }, { context in
                try RawNotes.save(context.notes, in: context.db)
            }, teardown: { context in
                self.harness.deleteDatabase(context.path)
            })
        }
        func qsdataTrial(indexed: Bool) -> Harness.Trial {
            harness.trial(setup: {
                let tags = SampleData.tags.map(VSTag.init)
                let path = try database("save-search-index-qsdata", indexed: indexed)
                return (path: path, notes: values.map { VSNote($0, tags: tags) }, store: try await BenchModel.openStore(path, searchable: indexed))
            }, { context in
                try context.store.save(context.notes)
                try await context.store.flush()
            }, teardown: { context in
                if indexed {
                    try await context.store.execute("INSERT INTO notesSearch(notesSearch, rank) VALUES ('integrity-check', 1)")
                }
                try await context.store.close()
                self.harness.deleteDatabase(context.path)
            })
        }
        let samples = try await harness.interleave([
            (Impl.raw, rawTrial(indexed: false)),
            (Self.rawWithIndex, rawTrial(indexed: true)),
            (Impl.qsdata, qsdataTrial(indexed: false)),
            (Self.qsdataWithIndex, qsdataTrial(indexed: true)),
        ], threading: .sideBySide)
        let plain = Statistics.median((samples[Impl.qsdata] ?? []).sorted())
        let indexed = Statistics.median((samples[Self.qsdataWithIndex] ?? []).sorted())
        let rawIndexed = Statistics.median((samples[Self.rawWithIndex] ?? []).sorted())
        let cost = plain > 0 ? String(format: "%.2f× QSData without it", indexed / plain) : "?"
        let versusRaw = rawIndexed > 0 ? String(format: "%.2f× raw with it", indexed / rawIndexed) : "?"
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], note: "no index (as the save workload)"),
            harness.result(workload, Self.rawWithIndex, samples[Self.rawWithIndex] ?? [], note: "same INSERTs; triggers index the text"),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], note: "no index (as the save workload)"),
            harness.result(workload, Self.qsdataWithIndex, samples[Self.qsdataWithIndex] ?? [], note: "\(cost); \(versusRaw)"),
        ]
    }
}
