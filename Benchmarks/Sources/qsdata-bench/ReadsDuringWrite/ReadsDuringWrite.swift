import Foundation
import GRDB
import QSData

/// Read latency while a long write runs (issue 32): the main actor fetches a feed's 200 newest
/// articles and searches the titles for a word, one read after the other, while 100,000 new
/// articles are saved into a database of 100,000 with an FTS5 title index.
///
/// - QSData with a background write (`performInBackground { save }`): reads run on reader
///   connections and see the last committed state.
/// - QSData with an ordinary save, the "before": reads wait for the whole write.
/// - GRDB's `DatabasePool` (WAL, five readers): the write in `write` on its writer queue, the
///   reads with `read`, both `async`.
extension Workloads {
    nonisolated static let qsdataBackgroundWrite = "QSData background write"
    nonisolated static let qsdataOrdinarySave = "QSData ordinary save (before)"
    nonisolated static let grdbPool = "GRDB DatabasePool"

    func readsDuringWrite() async throws -> [BenchResult] {
        let written = sizes.backgroundWriteRows
        let plan = ReadPlan(articles: sizes.articles, written: written)
        let workload = "reads during a \(written)-article save into \(plan.articles)"
        print("  \(HostLoad.description) at the start")
        let template = try searchableArticlesTemplate(plan.articles)
        defer { harness.deleteDatabase(template) }
        let newArticles = (plan.articles..<(plan.articles + written)).map(SampleData.article)
        let recorder = ReadLatencyRecorder()
        _ = try await harness.interleave([
            (Self.qsdataBackgroundWrite, qsdataReadsTrial(Self.qsdataBackgroundWrite, inBackground: true, template: template,
                                                          plan: plan, newArticles: newArticles, recorder: recorder)),
            (Self.qsdataOrdinarySave, qsdataReadsTrial(Self.qsdataOrdinarySave, inBackground: false, template: template,
                                                       plan: plan, newArticles: newArticles, recorder: recorder)),
            (Self.grdbPool, grdbReadsTrial(template: template, plan: plan, newArticles: newArticles, recorder: recorder)),
        ], threading: .sideBySide)
        let implementations = [Self.qsdataBackgroundWrite, Self.qsdataOrdinarySave, Self.grdbPool]
            .filter { Harness.selectedImplementations?.contains($0) ?? true }
        let summaries = implementations.map { ReadLatencySummary(implementation: $0, recorder: recorder) }
        print(ReadLatencySummary.table(summaries, plan: plan, written: written))
        print("  \(HostLoad.description) at the end")
        for summary in summaries {
            let latencies = summary.latencies
            if !latencies.failures.isEmpty {
                print("  \(summary.implementation): \(latencies.failures.count) failed reads, first: \(latencies.failures.prefix(3))")
            }
            let slowest = latencies.slowReads.sorted { $0.milliseconds > $1.milliseconds }.prefix(5)
            if !slowest.isEmpty {
                print("  \(summary.implementation): \(latencies.slowReads.count) reads over \(Int(SlowRead.threshold)) ms; slowest: "
                      + slowest.map(\.description).joined(separator: "; "))
            }
        }
        return summaries.flatMap { $0.results(workload: workload, plan: plan, harness: harness) }
    }

    /// A round of QSData: the save of `newArticles` (in the background or not) while the main actor
    /// reads; setup opens a store on a copy of `template` and makes the articles, untimed.
    private func qsdataReadsTrial(
        _ name: String, inBackground: Bool, template: String, plan: ReadPlan, newArticles: [ArticleValues],
        recorder: ReadLatencyRecorder
    ) -> Harness.Trial {
        func fetch(_ store: QSStore, _ feed: String, _ limit: Int) async throws -> Int {
            try await store.fetch(Article.self, where: "feedID = ?", arguments: [.text(feed)], orderBy: "datePublished DESC", limit: limit).count
        }
        func search(_ store: QSStore, _ word: String, _ limit: Int) async throws -> Int {
            try await store.search(Article.self, for: word, limit: limit).count
        }
        return harness.trial(setup: {
            let path = try self.harness.copyDatabase(template, name: "reads-during-write-qsdata")
            let store = try await BenchModel.openStore(path, searchable: true)
            // Statements prepared, as in an app that has been showing these screens.
            _ = try await fetch(store, plan.feed(0), plan.fetchLimit)
            _ = try await search(store, plan.word(0), plan.searchLimit)
            return (path: path, store: store, articles: newArticles.map(Article.init))
        }, { context in
            let store = context.store
            let writeStart = ContinuousClock.now
            let write: QSWrite
            if inBackground {
                write = try store.performInBackground { _ = try store.save(context.articles) }
            } else {
                write = try store.save(context.articles)
            }
            let watch = WriteWatch(startedAt: writeStart) { try await write.committed() }
            var latencies = try await ReadLoop.read(
                during: watch, plan: plan, searchFirst: recorder.trials(of: name) % 2 == 1,
                fetch: { feed, limit in try await fetch(store, feed, limit) },
                search: { word, limit in try await search(store, word, limit) })
            try await watch.finish()
            latencies.noteWrite(milliseconds: watch.milliseconds)
            latencies.readersOpened = store.openReaderCount
            recorder.record(latencies, for: name)
        }, teardown: { context in
            let count = try await context.store.count(Article.self)
            try await context.store.close()
            self.harness.deleteDatabase(context.path)
            try self.check(count == plan.articles + newArticles.count, "\(name): \(count) articles after the write")
        })
    }

    /// A round of GRDB: the insert of `newArticles` in `DatabasePool.write` while the main actor
    /// reads with `DatabasePool.read`; setup opens a pool on a copy of `template`, untimed.
    private func grdbReadsTrial(template: String, plan: ReadPlan, newArticles: [ArticleValues], recorder: ReadLatencyRecorder) -> Harness.Trial {
        harness.trial(setup: {
            let path = try self.harness.copyDatabase(template, name: "reads-during-write-grdb")
            let pool = try GRDBPool.open(path)
            _ = try await GRDBPool.newestArticles(of: plan.feed(0), limit: plan.fetchLimit, in: pool)
            _ = try await GRDBPool.search(ReadPlan.ftsQuery(plan.word(0)), limit: plan.searchLimit, in: pool)
            return (path: path, pool: pool)
        }, { context in
            let pool = context.pool
            let watch = WriteWatch { try await GRDBPool.insert(newArticles, in: pool) }
            var latencies = try await ReadLoop.read(
                during: watch, plan: plan, searchFirst: recorder.trials(of: Self.grdbPool) % 2 == 1,
                fetch: { feed, limit in try await GRDBPool.newestArticles(of: feed, limit: limit, in: pool).count },
                search: { word, limit in try await GRDBPool.search(ReadPlan.ftsQuery(word), limit: limit, in: pool).count })
            try await watch.finish()
            latencies.noteWrite(milliseconds: watch.milliseconds)
            recorder.record(latencies, for: Self.grdbPool)
        }, teardown: { context in
            let count = try await GRDBPool.count(in: context.pool)
            try context.pool.close()
            self.harness.deleteDatabase(context.path)
            try self.check(count == plan.articles + newArticles.count, "GRDB: \(count) articles after the write")
        })
    }
}
