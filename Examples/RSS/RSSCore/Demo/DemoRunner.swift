import Foundation
import QSData

/// `rss demo`: a large synthetic subscription imported, then 10,000 articles marked read and
/// 10,000 deleted, with the SQL statement counts and times that show QSData's bulk operations.
@MainActor
public struct DemoRunner {
    public var articleCount: Int
    public var bulkCount: Int
    /// Where each line of the narration goes.
    public var say: @MainActor (String) -> Void

    public init(articleCount: Int = 100_000, bulkCount: Int = 10_000, say: @escaping @MainActor (String) -> Void) {
        self.articleCount = articleCount
        self.bulkCount = bulkCount
        self.say = say
    }

    /// The measurements, for tests and `--json`.
    public struct Report: Sendable, Codable, Equatable {
        public var feeds = 0
        public var articles = 0
        public var authors = 0
        public var importSeconds = 0.0
        public var importArticlesPerSecond = 0.0
        public var markReadCount = 0
        public var markReadStatements = 0
        public var markReadMilliseconds = 0.0
        public var markReadPatchedObjects = 0
        public var unreadBefore = 0
        public var unreadAfterMarkRead = 0
        public var unreadAfterDelete = 0
        public var deleteCount = 0
        public var deleteStatements = 0
        public var deleteRelationships = 0
        public var deleteMilliseconds = 0.0
        public var cachedSummariesAfterDelete = 0
        public var countsMatchDatabase = false
        public var liveMarkReadStatements = 0
        public var liveMarkReadRefetches = 0
        public var liveStarStatements = 0
        public var liveStarRefetches = 0
        public var searchStatements = 0
        public var searchResults = 0
    }

    /// Runs the demo on the (empty) database `data` is open on.
    public func run(data: RSSDataController, scratchFolder: URL) async throws -> Report {
        var report = Report()
        let store = data.store
        let subscription = SyntheticSubscription(articleCount: articleCount)

        // 1. Write the synthetic feeds, then import them like any folder of feeds.
        let feedFolder = scratchFolder.appendingPathComponent("feeds")
        let files = try subscription.write(to: feedFolder)
        defer { try? FileManager.default.removeItem(at: feedFolder) }
        say("Importing \(format(articleCount)) articles in \(files.count) synthetic feeds (\(subscription.authorCount) authors, one or two per article)…")
        let summary = await FeedImporter(data: data).importFeeds(from: [.file(feedFolder)])
        if let failure = summary.failures.first { throw failure }
        report.feeds = summary.feeds
        report.articles = summary.newArticles
        report.importSeconds = summary.seconds
        report.importArticlesPerSecond = summary.articlesPerSecond
        report.authors = try await store.count(Author.self)
        say("  imported \(format(summary.newArticles)) articles and \(format(report.authors)) authors in \(milliseconds(summary.seconds)) ms: \(format(Int(summary.articlesPerSecond))) articles/s (parse + store)")

        // 2. The timeline: every article as a light, uniqued list object, held in memory.
        let timeline = try await data.articles()
        report.unreadBefore = data.totalUnreadCount
        say("Timeline: \(format(timeline.count)) articles in memory, \(format(report.unreadBefore)) unread")

        // 3. Mark 10,000 read: one UPDATE, and the objects in memory change with it.
        let toRead = Array(timeline.lazy.filter { !$0.read }.prefix(bulkCount))
        var started = ContinuousClock.now
        let readLog = try await store.recordStatements {
            try data.markRead(toRead)
            try await store.flush()
        }
        report.markReadMilliseconds = milliseconds(since: started)
        report.markReadCount = toRead.count
        report.markReadStatements = readLog.count
        let cached = try store.cachedObjects(of: ArticleSummary.self)
        let readIDs = Set(toRead.map(\.uniqueID))
        report.markReadPatchedObjects = cached.filter { readIDs.contains($0.uniqueID) && $0.read }.count
        report.unreadAfterMarkRead = data.totalUnreadCount
        say("Mark \(format(toRead.count)) read: \(readLog.count) SQL statement\(readLog.count == 1 ? "" : "s"), \(format(report.markReadMilliseconds)) ms")
        for statement in readLog.statements { say("  \(abbreviated(statement))") }
        say("  cached objects now read: \(format(report.markReadPatchedObjects)) of \(format(toRead.count)); unread count \(format(report.unreadBefore)) → \(format(report.unreadAfterMarkRead)) (no refetch)")

        // 4. Delete 10,000 others: one DELETE on articles, one on the authors lookup table.
        let toDelete = Array(timeline.lazy.filter { !readIDs.contains($0.uniqueID) }.prefix(bulkCount))
        started = ContinuousClock.now
        let deleteLog = try await store.recordStatements {
            try data.delete(toDelete)
            try await store.flush()
        }
        report.deleteMilliseconds = milliseconds(since: started)
        report.deleteCount = toDelete.count
        report.deleteStatements = deleteLog.count
        report.deleteRelationships = store.model["Article"]?.relationships.count ?? 0
        report.cachedSummariesAfterDelete = try store.cachedObjectCount(of: ArticleSummary.self)
        report.unreadAfterDelete = data.totalUnreadCount
        say("Delete \(format(toDelete.count)) articles with their authors: \(deleteLog.count) SQL statements (1 + \(report.deleteRelationships) relationship), \(format(report.deleteMilliseconds)) ms")
        for statement in deleteLog.statements { say("  \(abbreviated(statement))") }
        say("  cached list objects: \(format(timeline.count)) → \(format(report.cachedSummariesAfterDelete)); unread count → \(format(report.unreadAfterDelete)) (no refetch)")

        // 5. Check the in-memory counts against the database.
        let counted = try await store.count(ArticleSummary.self, where: "read = 0")
        report.countsMatchDatabase = counted == report.unreadAfterDelete
        say("Check: the database counts \(format(counted)) unread articles — \(report.countsMatchDatabase ? "matches" : "DOES NOT MATCH") the in-memory count")

        try await showLiveUnreadList(data: data, report: &report)
        try await showSearch(data: data, report: &report)
        return report
    }

    /// 6. The unread list as a live query: fetched again once when articles are marked read,
    ///    patched without SQL when one is starred (the list neither filters nor sorts by it).
    private func showLiveUnreadList(data: RSSDataController, report: inout Report) async throws {
        let store = data.store
        let unread = try await data.liveArticles(ArticleFilter(unreadOnly: true, limit: 3))
        say("Live unread list (the newest 3 unread, kept current):")
        showList(unread, data: data)
        let marked = Array(unread.objects.prefix(2))
        let readLog = try await store.recordStatements {
            _ = try data.markRead(marked)
            try await unread.waitUntilCurrent()
        }
        report.liveMarkReadStatements = readLog.count
        report.liveMarkReadRefetches = unread.refetchCount
        say("  marked the top 2 read: \(readLog.count) SQL statements, the UPDATE and \(unread.refetchCount) re-fetch of the list:")
        showList(unread, data: data)
        guard let top = unread.objects.first else { return }
        let starLog = try await store.recordStatements {
            _ = try data.setStarred([top], starred: true)
            try await unread.waitUntilCurrent()
        }
        report.liveStarStatements = starLog.count
        report.liveStarRefetches = unread.refetchCount - report.liveMarkReadRefetches
        say("  starred the top one: \(starLog.count) SQL statement, the UPDATE; the list was patched without SQL (\(unread.patchCount) patch, \(report.liveStarRefetches) re-fetches):")
        showList(unread, data: data)
    }

    private func showList(_ list: QSLiveQuery<ArticleSummary>, data: RSSDataController) {
        for article in list.objects {
            say("    \(article.read ? " " : "•")\(article.starred ? "★" : " ") \(article.title ?? "(untitled)")")
        }
    }

    /// 7. Full-text search, ranked by bm25, through the index the schema's triggers keep current.
    private func showSearch(data: RSSDataController, report: inout Report) async throws {
        var results: [RSSSearchResult] = []
        let searchLog = try await data.store.recordStatements {
            results = try await data.search("article 42", filter: ArticleFilter(limit: 3))
        }
        report.searchStatements = searchLog.count
        report.searchResults = results.count
        say("Search \"article 42\" (every word, the last as a prefix), best 3 of the full-text index: \(searchLog.count) SQL statement\(searchLog.count == 1 ? "" : "s")")
        for result in results { say("    \(result.article.title ?? "(untitled)"): \(result.plainSnippet)") }
    }

    private func format(_ number: Int) -> String {
        number.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }

    private func format(_ number: Double) -> String {
        String(format: "%.1f", number)
    }

    private func milliseconds(_ seconds: Double) -> String { String(format: "%.0f", seconds * 1000) }

    private func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    private func abbreviated(_ sql: String) -> String {
        sql.count > 110 ? String(sql.prefix(107)) + "…" : sql
    }
}
