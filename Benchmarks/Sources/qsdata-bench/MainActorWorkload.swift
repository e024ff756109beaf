import Foundation
import GRDB
import QSData
import CSQLiteBench

/// How long the main actor waits while QSData saves and fetches many notes.
extension Workloads {
    // MARK: The main actor while QSData saves 100,000 notes and fetches them all

    func mainActorStall() async throws -> [BenchResult] {
        let count = sizes.stallObjects
        let workload = "main actor during save+fetch of \(count) notes"
        let values = noteValues(count)
        let ticker = MainActorTicker()
        var maxGaps: [Double] = []
        var p99Gaps: [Double] = []
        var maxGapsAfterSave: [Double] = []
        var saveCallTimes: [Double] = []
        let clock = ContinuousClock()

        let totals = try await harness.interleave([("QSData", harness.trial(setup: {
            let tags = SampleData.tags.map(VSTag.init)
            let path = try self.emptyDatabase("main-actor-qsdata")
            return (path: path, notes: values.map { VSNote($0, tags: tags) }, store: try await BenchModel.openStore(path))
        }, { context in
            ticker.start()
            try await Task.sleep(for: .milliseconds(20))
            let saveStart = clock.now
            try context.store.save(context.notes)
            saveCallTimes.append(saveStart.duration(to: clock.now).milliseconds)
            // The next interval the ticker records spans the save() call; the ones after it
            // are the flush and the fetch.
            let afterSave = ticker.intervals.count + 1
            try await context.store.flush()
            let fetched = try await context.store.fetchAll(VSNote.self)
            try await Task.sleep(for: .milliseconds(20))
            await ticker.stop()
            try self.check(fetched.count == count, "main-actor workload fetched \(fetched.count)")
            maxGaps.append(ticker.intervals.max() ?? 0)
            maxGapsAfterSave.append(ticker.intervals.dropFirst(afterSave).max() ?? 0)
            p99Gaps.append(Statistics.percentile(ticker.intervals, 0.99))
        }, teardown: { context in
            try await context.store.close()
            self.harness.deleteDatabase(context.path)
        }))], threading: .sideBySide)["QSData"] ?? []
        // The warm-up's gaps are the first entries; keep the timed repetitions'.
        let timedMax = Array(maxGaps.dropFirst())
        let timedP99 = Array(p99Gaps.dropFirst())
        let timedSave = Array(saveCallTimes.dropFirst())
        let timedAfterSave = Array(maxGapsAfterSave.dropFirst())
        return [
            harness.result(workload, "QSData save+flush+fetchAll", totals, note: "total wall time, ticker running"),
            harness.result(workload, "QSData main-actor max gap", timedMax, note: "target ≤ 16 ms"),
            harness.result(workload, "QSData main-actor p99 gap", timedP99),
            harness.result(workload, "QSData save() call on main", timedSave, note: "synchronous part of save(_:)"),
            harness.result(workload, "QSData max gap after save()", timedAfterSave, note: "during flush() and fetchAll()"),
        ]
    }
}
