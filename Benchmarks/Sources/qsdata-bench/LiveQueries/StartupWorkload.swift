import CSQLiteBench
import Foundation
import GRDB
import QSData

/// Opening a store whose model fetches 10,000 labels at startup, up to the first fetch's results:
/// the 1,000 feeds, which the model keeps once fetched.
///
/// raw sqlite3 opens its connection (the pragmas, one read of the schema, as QSData does), reads
/// the labels and then the feeds into structs it keeps; GRDB opens a `DatabaseQueue` and fetches
/// both as records in one `read`; QSData opens the store (which fetches and keeps the labels) and
/// fetches the feeds. Every implementation holds what it read until the run ends, and each run
/// opens the same file afresh (QSData's first open, in the warm-up, installs its change log).
extension Workloads {
    func openToFirstFetch() async throws -> [BenchResult] {
        let feeds = sizes.scaled(1_000)
        let labels = sizes.scaled(10_000)
        let workload = "open, \(labels) labels at startup, first fetch of \(feeds) feeds"
        let path = harness.newDatabasePath("startup")
        try FeedsModel.template(path, feeds: feeds, labels: labels)
        defer { harness.deleteDatabase(path) }
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {}) {
                let db = try RawDatabase(path: path)
                let held = (labels: try Self.rawLabels(db), feeds: try Self.rawFeeds(db))
                try self.check(held.labels.count == labels && held.feeds.count == feeds, "raw read \(held.labels.count), \(held.feeds.count)")
            }),
            (Impl.grdb, harness.trial(setup: {}) {
                let dbQueue = try GRDBBench.open(path)
                let held = try GRDBBench.read(dbQueue) { db in
                    (labels: try GRDBLabel.fetchAll(db), feeds: try GRDBFeed.order(Column("sortIndex")).fetchAll(db))
                }
                try self.check(held.labels.count == labels && held.feeds.count == feeds, "GRDB read \(held.labels.count), \(held.feeds.count)")
            }),
            (Impl.qsdata, harness.trial(setup: { Box<QSStore>() }, { box in
                let store = try await FeedsModel.openStore(path)
                box.value = store
                let fetched = try await store.fetchAll(Feed.self, orderBy: "sortIndex")
                let heldLabels = try store.cachedObjectCount(of: Label.self)
                try self.check(fetched.count == feeds && heldLabels == labels, "QSData fetched \(fetched.count), holds \(heldLabels) labels")
            }, teardown: { box in
                try await box.value?.close()
            })),
        ], threading: .sideBySide)
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: 2, note: "connection (pragmas, schema read), labels, feeds into structs"),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], statements: 2, note: "DatabaseQueue (pragmas, schema read), fetchAll labels and feeds"),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [],
                           note: "QSStore.open (fetches and keeps the labels) + fetchAll(Feed.self); open also reads and checks the schema"),
        ]
    }

    private static func rawLabels(_ db: RawDatabase) throws -> [RawLabel] {
        let statement = try db.prepare("SELECT uniqueID, name FROM labels")
        defer { sqlite3_finalize(statement) }
        var labels: [RawLabel] = []
        while try db.stepRow(statement) {
            labels.append(RawLabel(uniqueID: rawText(statement, 0) ?? "", name: rawText(statement, 1) ?? ""))
        }
        return labels
    }

    private static func rawFeeds(_ db: RawDatabase) throws -> [RawFeed] {
        let statement = try db.prepare("SELECT uniqueID, title, homePage, sortIndex FROM feeds ORDER BY sortIndex")
        defer { sqlite3_finalize(statement) }
        var feeds: [RawFeed] = []
        while try db.stepRow(statement) {
            feeds.append(RawFeed(uniqueID: rawText(statement, 0) ?? "", title: rawText(statement, 1) ?? "",
                                 homePage: rawText(statement, 2) ?? "", sortIndex: sqlite3_column_int64(statement, 3)))
        }
        return feeds
    }
}

/// A value a trial's body makes and its teardown needs (the store it opened, a live query's
/// iterator), since the harness hands the body its setup's value only.
@MainActor
final class Box<Value> {
    var value: Value?

    init(_ value: Value? = nil) {
        self.value = value
    }
}
