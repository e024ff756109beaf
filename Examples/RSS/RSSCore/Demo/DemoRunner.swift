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
        return report
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
