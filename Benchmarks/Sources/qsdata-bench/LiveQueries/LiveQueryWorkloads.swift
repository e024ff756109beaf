import CSQLiteBench
import Foundation
import GRDB
import QSData

/// Live queries: how long after a change to one of 10,000 results the new results arrive.
///
/// - `live-query`: the app changes one article's title. QSData saves the changed instance and
///   waits for its `liveResults` sequence's next array; GRDB updates the row in a `write` and waits
///   for its `ValueObservation`'s next value (`values(in:)`, the same query, as records); raw
///   sqlite3 has no live query, so its figure is what a hand-written refresh costs: the UPDATE,
///   then the query again into structs.
/// - `outside-change`: another connection (raw sqlite3 in this process, which the store sees only
///   through the file, as it would another process) changes one article's title; the time runs
///   from its UPDATE to QSData's live results holding it. GRDB's `ValueObservation` does not see
///   other connections' changes, so it has no figure here.
extension Workloads {
    private nonisolated static let liveQueryOrder = "datePublished DESC, uniqueID"

    /// A closed database of `count` articles.
    private func liveArticlesTemplate(_ count: Int) throws -> String {
        let path = try emptyDatabase("live-template")
        let db = try RawDatabase(path: path)
        try RawArticles.insert((0..<count).map(SampleData.article), in: db)
        return path
    }

    func liveQueryAfterOneChange() async throws -> [BenchResult] {
        let count = sizes.scaled(10_000)
        let workload = "live query of \(count) articles, one changed"
        let template = try liveArticlesTemplate(count)
        defer { harness.deleteDatabase(template) }
        let changedID = SampleData.article(count / 2).uniqueID
        var round = 0
        func newTitle() -> String {
            round += 1
            return "Changed title \(round)"
        }
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "live-raw")
                return (path: path, db: try RawDatabase(path: path), title: newTitle())
            }, { context in
                try Self.rawSetTitle(context.title, id: changedID, in: context.db)
                let articles = try Self.rawArticles(context.db)
                try self.check(articles.count == count && articles.contains { $0.title == context.title }, "raw refresh")
            }, teardown: { context in self.harness.deleteDatabase(context.path) })),
            (Impl.grdb, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "live-grdb")
                let dbQueue = try GRDBBench.open(path)
                let observation = ValueObservation.tracking { db in
                    try GRDBArticle.order(sql: Self.liveQueryOrder).fetchAll(db)
                }
                // Values delivered on the main queue, as QSData delivers its results on the main actor.
                let (stream, continuation) = AsyncStream.makeStream(of: [GRDBArticle].self)
                let cancellable = observation.start(
                    in: dbQueue, scheduling: .async(onQueue: .main),
                    onError: { _ in continuation.finish() }, onChange: { continuation.yield($0) })
                var values = stream.makeAsyncIterator()
                let first = await values.next(isolation: #isolation)
                try self.check(first?.count == count, "GRDB first value \(first?.count ?? 0)")
                return (path: path, dbQueue: dbQueue, values: Box(values), observing: cancellable, title: newTitle())
            }, { context in
                try GRDBBench.write(context.dbQueue) { db in
                    _ = try GRDBArticle.filter(key: changedID).updateAll(db, Column("title").set(to: context.title))
                }
                let next = await context.values.value?.next(isolation: #isolation)
                try self.check(next?.contains { $0.title == context.title } == true, "GRDB's next value lacks the change")
            }, teardown: { context in
                context.observing.cancel()
                context.values.value = nil
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.qsdata, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "live-qsdata")
                let store = try await BenchModel.openStore(path)
                var results = store.liveResults(QSQuery(Article.self, orderBy: Self.liveQueryOrder)).makeAsyncIterator()
                let first = try await results.next()
                try self.check(first?.count == count, "QSData first results \(first?.count ?? 0)")
                let article = try Self.article(changedID, in: first)
                return (path: path, store: store, results: Box(results), article: article, title: newTitle())
            }, { context in
                context.article.title = context.title
                try context.store.save(context.article)
                let next = try await context.results.value?.next()
                try self.check(next?.count == count && next?.contains { $0.title == context.title } == true, "QSData's next results lack the change")
            }, teardown: { context in
                context.results.value = nil
                try await context.store.close()
                self.harness.deleteDatabase(context.path)
            })),
        ], threading: .sideBySide)
        let statements = try await liveQueryStatements(template, changedID: changedID, count: count)
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: 2, note: "no live query: the UPDATE, then the query again"),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], statements: 2, note: "updateAll in a write, then ValueObservation's next value"),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], statements: statements,
                           note: "save(article), then liveResults' next array"),
        ]
    }

    /// The statements QSData runs from the save to the new results, in an untimed run.
    private func liveQueryStatements(_ template: String, changedID: Int64, count: Int) async throws -> Int {
        let path = try harness.copyDatabase(template, name: "live-log")
        defer { harness.deleteDatabase(path) }
        let store = try await BenchModel.openStore(path)
        var results = store.liveResults(QSQuery(Article.self, orderBy: Self.liveQueryOrder)).makeAsyncIterator()
        let first = try await results.next()
        let article = try Self.article(changedID, in: first)
        let log = try await store.recordStatements {
            article.title = "Changed for the statement count"
            try store.save(article)
            _ = try await results.next()
        }
        try await store.close()
        return log.count
    }

    func outsideChangeReachesLiveQuery() async throws -> [BenchResult] {
        let count = sizes.scaled(10_000)
        let workload = "another connection's change reaches a live query of \(count)"
        let template = try liveArticlesTemplate(count)
        defer { harness.deleteDatabase(template) }
        let changedID = SampleData.article(count / 2).uniqueID
        var round = 0
        let samples = try await harness.interleave([
            (Impl.qsdata, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "outside-qsdata")
                let store = try await BenchModel.openStore(path)
                var results = store.liveResults(QSQuery(Article.self, orderBy: Self.liveQueryOrder)).makeAsyncIterator()
                let first = try await results.next()
                try self.check(first?.count == count, "QSData first results \(first?.count ?? 0)")
                round += 1
                return (path: path, store: store, results: Box(results), other: try RawDatabase(path: path), title: "Outside title \(round)")
            }, { context in
                try Self.rawSetTitle(context.title, id: changedID, in: context.other)
                let next = try await context.results.value?.next()
                try self.check(next?.contains { $0.title == context.title } == true, "QSData's next results lack the outside change")
            }, teardown: { context in
                context.results.value = nil
                try await context.store.close()
                self.harness.deleteDatabase(context.path)
            })),
        ], threading: .sideBySide)
        return [
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [],
                           note: "from the other connection's UPDATE to liveResults' next array (GRDB's ValueObservation sees only its own writes)"),
        ]
    }

    /// The article with `id` among a live query's results.
    private static func article(_ id: Int64, in results: [Article]?) throws -> Article {
        guard let article = results?.first(where: { $0.uniqueID == id }) else {
            throw RawSQLiteError(description: "result check failed: no article \(id) in the live query's results")
        }
        return article
    }

    private static func rawSetTitle(_ title: String, id: Int64, in db: RawDatabase) throws {
        try db.execute("BEGIN IMMEDIATE")
        let statement = try db.prepare("UPDATE articles SET title = ?1 WHERE uniqueID = ?2")
        defer { sqlite3_finalize(statement) }
        rawBind(statement, 1, title)
        sqlite3_bind_int64(statement, 2, id)
        try db.stepDone(statement)
        try db.execute("COMMIT")
    }

    private static func rawArticles(_ db: RawDatabase) throws -> [ArticleValues] {
        let statement = try db.prepare("SELECT \(RawArticles.columns) FROM articles ORDER BY \(liveQueryOrder)")
        defer { sqlite3_finalize(statement) }
        var articles: [ArticleValues] = []
        while try db.stepRow(statement) {
            articles.append(ArticleValues(
                uniqueID: sqlite3_column_int64(statement, 0), feedID: rawText(statement, 1) ?? "", title: rawText(statement, 2) ?? "",
                url: rawText(statement, 3) ?? "", datePublished: Date(timeIntervalSince1970: sqlite3_column_double(statement, 4)),
                read: sqlite3_column_int64(statement, 5) != 0, starred: sqlite3_column_int64(statement, 6) != 0))
        }
        return articles
    }
}
