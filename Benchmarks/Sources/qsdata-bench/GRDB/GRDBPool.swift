import Foundation
import GRDB

/// An article as a struct record: GRDB's async `read` and `write` hand their values between its
/// connections' queues and the main actor, so they must be `Sendable` (the class records of
/// `GRDBModels.swift` are not).
struct GRDBFeedArticle: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "articles"
    let uniqueID: Int64
    let feedID: String
    let title: String
    let url: String
    let datePublished: Date
    let read: Bool
    let starred: Bool

    init(_ values: ArticleValues) {
        uniqueID = values.uniqueID
        feedID = values.feedID
        title = values.title
        url = values.url
        datePublished = values.datePublished
        read = values.read
        starred = values.starred
    }

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        feedID = try row.decode(forColumn: "feedID")
        title = try row.decode(forColumn: "title")
        url = try row.decode(forColumn: "url")
        datePublished = Date(timeIntervalSince1970: try row.decode(forColumn: "datePublished"))
        read = try row.decode(forColumn: "read")
        starred = try row.decode(forColumn: "starred")
    }

    func encode(to container: inout PersistenceContainer) {
        container["uniqueID"] = uniqueID
        container["feedID"] = feedID
        container["title"] = title
        container["url"] = url
        container["datePublished"] = datePublished.timeIntervalSince1970
        container["read"] = read
        container["starred"] = starred
    }
}

/// GRDB's answer to reads during a long write: a `DatabasePool` (WAL, one writer, up to five
/// reader connections by default), written with `write` and read with `read`, both `async`.
enum GRDBPool {
    static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        // DatabasePool switches the file to WAL itself; the other pragmas are QSData's.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        return try DatabasePool(path: path, configuration: configuration)
    }

    /// Inserts the articles in one transaction on the pool's writer queue.
    static func insert(_ articles: [ArticleValues], in pool: DatabasePool) async throws {
        try await pool.write { db in
            for values in articles {
                try GRDBFeedArticle(values).insert(db)
            }
        }
    }

    /// A feed's newest `limit` articles: the fetch QSData's workload runs as
    /// `fetch(Article.self, where: "feedID = ?", orderBy: "datePublished DESC", limit:)`.
    static func newestArticles(of feed: String, limit: Int, in pool: DatabasePool) async throws -> [GRDBFeedArticle] {
        try await pool.read { db in
            try GRDBFeedArticle
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
    static func search(_ ftsQuery: String, limit: Int, in pool: DatabasePool) async throws -> [GRDBFeedArticle] {
        let sql = rankingSQL(limit: limit)
        return try await pool.read { db in
            let ids = try Row.fetchAll(db, sql: sql, arguments: [ftsQuery]).map { row -> Int64 in row[0] }
            let articles = try GRDBFeedArticle.fetchAll(db, keys: ids)
            let byID = Dictionary(articles.map { ($0.uniqueID, $0) }, uniquingKeysWith: { first, _ in first })
            return ids.compactMap { byID[$0] }
        }
    }

    static func count(in pool: DatabasePool) async throws -> Int {
        try await pool.read { db in try GRDBFeedArticle.fetchCount(db) }
    }
}
