import Foundation
import GRDB

/// GRDB's answer to reads during a long write: a `DatabasePool` (WAL, one writer, up to five
/// reader connections by default), written with `write` and read with `read`, both `async`.
enum GRDBPool {
    static func open(_ path: String) throws -> DatabasePool {
        try DatabasePool(path: path, configuration: GRDBBench.configuration(settingWAL: false))
    }

    /// Inserts the articles in one transaction on the pool's writer queue.
    static func insert(_ articles: [ArticleValues], in pool: DatabasePool) async throws {
        try await pool.write { db in
            for values in articles {
                try GRDBArticle(values).insert(db)
            }
        }
    }

    /// A feed's newest `limit` articles: the fetch QSData's workload runs as
    /// `fetch(Article.self, where: "feedID = ?", orderBy: "datePublished DESC", limit:)`.
    static func newestArticles(of feed: String, limit: Int, in pool: DatabasePool) async throws -> [GRDBArticle] {
        try await pool.read { db in
            try GRDBArticle
                .filter(Column("feedID") == feed)
                .order(Column("datePublished").desc)
                .limit(limit)
                .fetchAll(db)
        }
    }

    /// The statement QSData's `search(Article.self, for:, limit:)` runs to rank the matches
    /// (`SearchSQL`, without a condition or snippet).
    static func rankingSQL(limit: Int) -> String {
        """
        SELECT "articles"."uniqueID", qs_match.qs_score FROM (SELECT rowid AS qs_rowid, bm25("articlesSearch") AS qs_score \
        FROM "articlesSearch" WHERE "articlesSearch" MATCH ?) AS qs_match JOIN "articles" ON "articles".rowid = qs_match.qs_rowid \
        ORDER BY qs_match.qs_score LIMIT \(limit)
        """
    }

    /// The best `limit` articles for an FTS5 query, best first: what QSData's search does, the
    /// ranking statement then the articles by uniqueID, in one read.
    static func search(_ ftsQuery: String, limit: Int, in pool: DatabasePool) async throws -> [GRDBArticle] {
        let sql = rankingSQL(limit: limit)
        return try await pool.read { db in
            let ids = try Row.fetchAll(db, sql: sql, arguments: [ftsQuery]).map { row -> Int64 in row[0] }
            let articles = try GRDBArticle.fetchAll(db, keys: ids)
            let byID = Dictionary(articles.map { ($0.uniqueID, $0) }, uniquingKeysWith: { first, _ in first })
            return ids.compactMap { byID[$0] }
        }
    }

    static func count(in pool: DatabasePool) async throws -> Int {
        try await pool.read { db in try GRDBArticle.fetchCount(db) }
    }
}
