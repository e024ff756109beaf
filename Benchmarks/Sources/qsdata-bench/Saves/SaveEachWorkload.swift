import CSQLiteBench
import Foundation
import GRDB
import QSData

/// Part 3 of the incremental-saves workload: edit one property of 10,000 held objects, saving
/// each on its own inside one transaction, as a sync client merging a download does. Guards the
/// cost of one save against growing with the saves before it in the same transaction.
///
/// raw sqlite3 runs one prepared `UPDATE … SET title` per object; GRDB `updateChanges(_:from:)`
/// per record in one write; QSData `save(_:)` of each edited object inside `performInBackground`,
/// with plain uniqued classes and with classes that mark what they set.
extension Workloads {
    func editEachInItsOwnSave(_ template: String, count: Int) async throws -> [BenchResult] {
        let workload = "saves: edit \(count) objects, one save each, in one transaction"
        let condition = "uniqueID IN (SELECT uniqueID FROM episodes ORDER BY uniqueID LIMIT \(count))"
        let rawPath = try harness.copyDatabase(template, name: "s3-raw")
        let raw = try RawDatabase(path: rawPath)
        let ids = try rawEpisodeIDs(raw, condition)
        let grdbPath = try harness.copyDatabase(template, name: "s3-grdb")
        let dbQueue = try GRDBBench.open(grdbPath)
        let grdbEpisodes = try GRDBBench.read(dbQueue) { db in try GRDBEpisode.fetchAll(db, sql: "SELECT * FROM episodes WHERE \(condition)") }
        let storePath = try harness.copyDatabase(template, name: "s3-qsdata")
        let store = try await SavesModel.openStore(storePath)
        let episodes = try await store.fetch(ShowEpisode.self, where: condition)
        let markingPath = try harness.copyDatabase(template, name: "s3-qsdata-marking")
        let markingStore = try await SavesModel.openMarkingStore(markingPath)
        let markingEpisodes = try await markingStore.fetch(MarkingShowEpisode.self, where: condition)
        try check(
            [ids.count, grdbEpisodes.count, episodes.count, markingEpisodes.count] == [count, count, count, count],
            "fetched episodes")
        // Every round writes a title the rows do not hold yet.
        let rounds = Counter()
        let newTitle = { "Edited title \(rounds.next())" }
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: newTitle) { title in
                try raw.execute("BEGIN")
                let update = try raw.prepare("UPDATE episodes SET title = ? WHERE uniqueID = ?")
                defer { sqlite3_finalize(update) }
                for id in ids {
                    rawBind(update, 1, title)
                    sqlite3_bind_int64(update, 2, id)
                    try raw.stepDone(update)
                    sqlite3_reset(update)
                }
                try raw.execute("COMMIT")
            } teardown: { title in try self.checkEditedTitles(rawPath, condition: condition, title: title, count: count) }),
            (Impl.grdb, harness.trial(setup: newTitle) { title in
                try GRDBBench.write(dbQueue) { db in
                    for original in grdbEpisodes {
                        var episode = original
                        episode.title = title
                        _ = try episode.updateChanges(db, from: original)
                    }
                }
            } teardown: { title in try self.checkEditedTitles(grdbPath, condition: condition, title: title, count: count) }),
            (Impl.qsdata, harness.trial(setup: newTitle) { title in
                try await self.saveEach(episodes, in: store, title: title) { $0.title = $1 }
            } teardown: { title in try self.checkEditedTitles(storePath, condition: condition, title: title, count: count) }),
            (Impl.qsdataMarking, harness.trial(setup: newTitle) { title in
                try await self.saveEach(markingEpisodes, in: markingStore, title: title) { $0.title = $1 }
            } teardown: { title in try self.checkEditedTitles(markingPath, condition: condition, title: title, count: count) }),
        ], threading: .sideBySide)
        let log = try await store.recordStatements {
            try await self.saveEach(episodes, in: store, title: newTitle()) { $0.title = $1 }
        }
        let markingLog = try await markingStore.recordStatements {
            try await self.saveEach(markingEpisodes, in: markingStore, title: newTitle()) { $0.title = $1 }
        }
        try await store.close()
        try await markingStore.close()
        for path in [rawPath, grdbPath, storePath, markingPath] { harness.deleteDatabase(path) }
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: count, note: "an UPDATE of the title per object"),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], statements: count, note: "updateChanges(_:from:) per record"),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], statements: log.count,
                           note: "save(episode) of each, in performInBackground"),
            harness.result(workload, Impl.qsdataMarking, samples[Impl.qsdataMarking] ?? [], statements: markingLog.count,
                           note: "the same, of objects that mark what they set"),
        ]
    }

    /// QSData: gives each episode `title` and saves it on its own, all in one background write.
    private func saveEach<Episode: QSDataObject>(
        _ episodes: [Episode], in store: QSStore, title: String, setting setTitle: (Episode, String) -> Void
    ) async throws {
        try store.performInBackground {
            for episode in episodes {
                setTitle(episode, title)
                try store.save(episode)
            }
        }
        try await store.flush()
    }

    private func rawEpisodeIDs(_ db: RawDatabase, _ condition: String) throws -> [Int64] {
        let statement = try db.prepare("SELECT uniqueID FROM episodes WHERE \(condition)")
        defer { sqlite3_finalize(statement) }
        var ids: [Int64] = []
        while try db.stepRow(statement) { ids.append(sqlite3_column_int64(statement, 0)) }
        return ids
    }

    private func checkEditedTitles(_ path: String, condition: String, title: String, count: Int) throws {
        let db = try RawDatabase(path: path)
        let statement = try db.prepare("SELECT count(*) FROM episodes WHERE title = ? AND \(condition)")
        defer { sqlite3_finalize(statement) }
        rawBind(statement, 1, title)
        _ = try db.stepRow(statement)
        let edited = Int(sqlite3_column_int64(statement, 0))
        try check(edited == count, "edited episodes \(edited) of \(count)")
    }
}

/// Numbers the rounds of a workload, from 0.
@MainActor
private final class Counter {
    private var count = 0

    func next() -> Int {
        defer { count += 1 }
        return count
    }
}
