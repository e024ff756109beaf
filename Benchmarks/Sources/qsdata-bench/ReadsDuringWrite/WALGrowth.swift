import Foundation
import QSData

/// The write-ahead log's size under a UI's load (issue 32): on a store opened with the default
/// options, the main actor fetches a feed's newest articles over and over while a few articles are
/// saved every 10 ms, for `--wal-seconds`, and a sampler reads the `-wal` file's size every 50 ms.
/// Three phases, each on a fresh copy of the database: ordinary saves; background saves; and
/// background saves with a 100,000-article background save a quarter of the way in, which grows
/// the log far past the size limit, to show the limit bringing the file back down after it.
extension Workloads {
    func walGrowth() async throws -> [BenchResult] {
        let plan = ReadPlan(articles: sizes.articles)
        let workload = "-wal size, reads and saves every \(Int(SmallWrites.interval.milliseconds)) ms, \(seconds(walGrowthDuration)) a phase"
        print("  \(HostLoad.description) at the start")
        let template = try searchableArticlesTemplate(plan.articles)
        defer { harness.deleteDatabase(template) }
        var reports: [WALPhaseReport] = []
        for phase in WALPhase.allCases {
            reports.append(try await runWALPhase(phase, template: template, plan: plan))
            print("  \(phase.rawValue): done, \(HostLoad.description)")
        }
        print(WALPhaseReport.table(reports, duration: walGrowthDuration))
        for report in reports {
            if !report.failures.isEmpty {
                print("  \(report.phase.rawValue): \(report.failures.count) failures, first: \(report.failures.prefix(3))")
            }
            if let slow = report.slowReadsDescription { print("  \(report.phase.rawValue): \(slow)") }
        }
        return reports.flatMap { $0.results(workload: workload, harness: harness) }
    }

    /// One phase on a fresh copy of `template`: reads and small writes for `walGrowthDuration`
    /// (and until the long write, if the phase has one, has committed), the `-wal` file sampled.
    private func runWALPhase(_ phase: WALPhase, template: String, plan: ReadPlan) async throws -> WALPhaseReport {
        let path = try harness.copyDatabase(template, name: "wal-growth")
        defer { harness.deleteDatabase(path) }
        let store = try await BenchModel.openStore(path, searchable: true)
        let longWriteRows = phase == .backgroundSavesAndLongWrite ? sizes.backgroundWriteRows : 0
        let longWriteArticles = PendingArticles((plan.articles..<(plan.articles + longWriteRows)).map { Article(SampleData.article($0)) })
        let clock = ContinuousClock()
        let sampler = FileSizeSampler(path: path + "-wal", every: .milliseconds(50))
        let start = clock.now
        let longWriteStart = start + walGrowthDuration / 4
        let smallWrites = SmallWrites(store: store, inBackground: phase != .ordinarySaves,
                                      firstArticle: plan.articles + sizes.backgroundWriteRows)
        let longWrite = longWriteRows == 0 ? nil : WriteWatch {
            try await Task.sleep(until: longWriteStart, clock: ContinuousClock())
            let write = try store.performInBackground { _ = try store.save(longWriteArticles.articles) }
            try await write.committed()
        }
        var report = WALPhaseReport(phase: phase, sizeLimit: QSStoreOptions().walSizeLimit)
        while clock.now < start + walGrowthDuration || !(longWrite?.isFinished ?? true) {
            let read = report.readLatencies.count
            let readStart = clock.now
            do {
                let rows = try await store.fetch(
                    Article.self, where: "feedID = ?", arguments: [.text(plan.feed(read))], orderBy: "datePublished DESC",
                    limit: plan.fetchLimit).count
                // Saves only add articles, so a feed never has fewer than before the phase.
                if rows < plan.fetchRows(read, articles: plan.articles) { report.failures.append("fetch \(read) returned \(rows) rows") }
            } catch {
                report.failures.append("fetch \(read) threw \(error)")
            }
            let latency = readStart.duration(to: clock.now).milliseconds
            report.readLatencies.append(latency)
            if latency > SlowRead.threshold { report.slowReads.append((issued: readStart, milliseconds: latency)) }
        }
        await smallWrites.stop()
        report.writes = smallWrites.count
        report.failures += smallWrites.failures
        if let longWrite {
            try await longWrite.finish()
            report.longWrite = longWrite.finishedAt.map { (start: longWriteStart, commit: $0) }
        }
        try await store.flush()
        report.finalSize = FileSizeSampler.size(of: path + "-wal")
        report.samples = await sampler.stop()
        report.readersOpened = store.openReaderCount
        try await store.close()
        return report
    }
}

/// The phases of `wal-growth`.
enum WALPhase: String, CaseIterable {
    case ordinarySaves = "ordinary saves"
    case backgroundSaves = "background saves"
    case backgroundSavesAndLongWrite = "background saves + a long background save"
}

/// Articles for a write that starts later: a main-actor class can be captured by a `Sendable`
/// closure where an array of articles cannot.
@MainActor
final class PendingArticles {
    let articles: [Article]

    init(_ articles: [Article]) {
        self.articles = articles
    }
}

/// Saves a few new articles every 10 ms from the main actor, as a sync or a UI would, until
/// stopped: ordinary saves, or each in the background.
@MainActor
final class SmallWrites {
    nonisolated static let rows = 5
    nonisolated static let interval: Duration = .milliseconds(10)
    private(set) var count = 0
    private(set) var failures: [String] = []
    private var task: Task<Void, Never>?

    /// Starts saving article `firstArticle` and the next ones (``SampleData/article(_:)``).
    init(store: QSStore, inBackground: Bool, firstArticle: Int) {
        task = Task { @MainActor [weak self] in
            var next = firstArticle
            while !Task.isCancelled {
                let batch = (next..<(next + Self.rows)).map { Article(SampleData.article($0)) }
                next += Self.rows
                do {
                    if inBackground {
                        try store.performInBackground { _ = try store.save(batch) }
                    } else {
                        try store.save(batch)
                    }
                    self?.count += 1
                } catch {
                    self?.failures.append("save \(next) threw \(error)")
                }
                try? await Task.sleep(for: Self.interval)
            }
        }
    }

    func stop() async {
        task?.cancel()
        await task?.value
    }
}

/// One reading of a file's size.
struct FileSizeSample: Sendable {
    let time: ContinuousClock.Instant
    let bytes: Int
}

/// Reads a file's size every `interval`, off the main actor, until stopped.
final class FileSizeSampler: Sendable {
    private let task: Task<[FileSizeSample], Never>

    init(path: String, every interval: Duration) {
        task = Task.detached {
            var samples: [FileSizeSample] = []
            while !Task.isCancelled {
                samples.append(FileSizeSample(time: ContinuousClock.now, bytes: FileSizeSampler.size(of: path)))
                try? await Task.sleep(for: interval)
            }
            return samples
        }
    }

    func stop() async -> [FileSizeSample] {
        task.cancel()
        return await task.value
    }

    /// The file's size in bytes; 0 when there is no such file.
    static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
