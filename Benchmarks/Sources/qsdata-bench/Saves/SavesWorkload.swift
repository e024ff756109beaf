import CSQLiteBench
import Foundation
import GRDB
import QSData

/// The incremental-saves workload: a save costs what changed, not what the object graph holds.
///
/// 1. Add one episode at the front of each of 1,000 shows holding 1,000 ordered episodes, and
///    of each of 10,000 shows holding 100.
///    raw sqlite3 and GRDB insert the episode and one lookup row per show, taking an order value
///    below the show's first (which they keep in memory, as such an app would); QSData inserts the
///    episode into each show's lazily loaded `QSRelated` and saves the 1,000 shows.
/// 2. Re-save 10,000 unchanged episodes. raw sqlite3 runs a guarded `UPDATE … WHERE … IS NOT …`
///    per episode (it keeps no copy); GRDB compares with a copy it keeps (`updateChanges(_:from:)`);
///    QSData saves the fetched episodes.
/// 3. Edit 10,000 episodes, one save each, in one transaction (see `editEachInItsOwnSave`).
extension Workloads {
    func incrementalSaves() async throws -> [BenchResult] {
        let parents = sizes.scaled(1_000)
        let children = min(sizes.scaled(1_000), 9_000)
        let unchanged = min(sizes.scaled(10_000), parents * children)
        let template = try showsTemplate(parents: parents, children: children)
        // Ten times the parents, each of a tenth of the children: what a save costs per parent.
        let manyParents = sizes.scaled(10_000), fewChildren = min(sizes.scaled(100), 9_000)
        let wideTemplate = try showsTemplate(parents: manyParents, children: fewChildren)
        return try await addOneChildEach(template, parents: parents, children: children)
            + addOneChildEach(wideTemplate, parents: manyParents, children: fewChildren)
            + resaveUnchanged(template, count: unchanged)
            + editEachInItsOwnSave(template, count: unchanged)
    }

    private func showsTemplate(parents: Int, children: Int) throws -> String {
        let path = harness.newDatabasePath("shows-template")
        let db = try RawDatabase(path: path)
        try db.execute(SavesModel.schemaSQL)
        try db.execute("BEGIN")
        let show = try db.prepare("INSERT INTO shows (uniqueID, title) VALUES (?, ?)")
        let episode = try db.prepare("INSERT INTO episodes (uniqueID, title, duration) VALUES (?, ?, ?)")
        let lookup = try db.prepare("INSERT INTO showEpisodes (showID, episodeID, ix) VALUES (?, ?, ?)")
        defer { [show, episode, lookup].forEach { sqlite3_finalize($0) } }
        for showID in 1...Int64(parents) {
            sqlite3_bind_int64(show, 1, showID)
            rawBind(show, 2, "Show \(showID)")
            try db.stepDone(show)
            sqlite3_reset(show)
            for position in 0..<children {
                try insertEpisode(SavesModel.episodeID(show: showID, position: position), title: "Episode \(position)",
                                  show: showID, index: Int64(position) * SavesModel.gap, db, episode, lookup)
            }
        }
        try db.execute("COMMIT")
        return path
    }

    /// raw sqlite3: one episode row and its lookup row, with prepared statements.
    private func insertEpisode(_ id: Int64, title: String, show: Int64, index: Int64, _ db: RawDatabase,
                               _ episode: OpaquePointer, _ lookup: OpaquePointer) throws {
        sqlite3_bind_int64(episode, 1, id)
        rawBind(episode, 2, title)
        sqlite3_bind_double(episode, 3, 1_800)
        try db.stepDone(episode)
        sqlite3_reset(episode)
        sqlite3_bind_int64(lookup, 1, show)
        sqlite3_bind_int64(lookup, 2, id)
        sqlite3_bind_int64(lookup, 3, index)
        try db.stepDone(lookup)
        sqlite3_reset(lookup)
    }

    private func addOneChildEach(_ template: String, parents: Int, children: Int) async throws -> [BenchResult] {
        let workload = "saves: add 1 child to each of \(parents) parents of \(children)"
        let showIDs = (1...Int64(parents)).map { $0 }
        let firstIndex = -SavesModel.gap  // every show's first order value is 0
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "s1-raw")
                return (path: path, db: try RawDatabase(path: path))
            }, { context in
                let db = context.db
                try db.execute("BEGIN")
                let episode = try db.prepare("INSERT INTO episodes (uniqueID, title, duration) VALUES (?, ?, ?)")
                let lookup = try db.prepare("INSERT INTO showEpisodes (showID, episodeID, ix) VALUES (?, ?, ?)")
                defer { [episode, lookup].forEach { sqlite3_finalize($0) } }
                for showID in showIDs {
                    try self.insertEpisode(SavesModel.newEpisodeID(show: showID), title: "New episode",
                                           show: showID, index: firstIndex, db, episode, lookup)
                }
                try db.execute("COMMIT")
            }, teardown: { context in
                try self.checkAddedChildren(context.path, parents: parents, children: children)
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.grdb, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "s1-grdb")
                return (path: path, dbQueue: try GRDBBench.open(path))
            }, { context in
                try GRDBBench.write(context.dbQueue) { db in
                    for showID in showIDs {
                        let id = SavesModel.newEpisodeID(show: showID)
                        try GRDBEpisode(uniqueID: id, title: "New episode", duration: 1_800).insert(db)
                        try GRDBShowEpisode(showID: showID, episodeID: id, ix: firstIndex).insert(db)
                    }
                }
            }, teardown: { context in
                try self.checkAddedChildren(context.path, parents: parents, children: children)
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.qsdata, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "s1-qsdata")
                let store = try await SavesModel.openStore(path)
                return (path: path, store: store, shows: try await store.fetchAll(Show.self))
            }, { context in
                for show in context.shows {
                    show.episodes.insert(ShowEpisode(uniqueID: SavesModel.newEpisodeID(show: show.uniqueID), title: "New episode", duration: 1_800), at: 0)
                }
                try context.store.save(context.shows)
                try await context.store.flush()
            }, teardown: { context in
                try await context.store.close()
                try self.checkAddedChildren(context.path, parents: parents, children: children)
                self.harness.deleteDatabase(context.path)
            })),
        ], threading: .sideBySide)
        // Statement counts, untimed.
        let path = try harness.copyDatabase(template, name: "s1-log")
        let store = try await SavesModel.openStore(path)
        let shows = try await store.fetchAll(Show.self)
        let log = try await store.recordStatements {
            for show in shows {
                show.episodes.insert(ShowEpisode(uniqueID: SavesModel.newEpisodeID(show: show.uniqueID), title: "New episode", duration: 1_800), at: 0)
            }
            try store.save(shows)
            try await store.flush()
        }
        try await store.close()
        harness.deleteDatabase(path)
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: 2 * parents),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], statements: 2 * parents),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], statements: log.count,
                           note: "episodes loaded lazily (IDs only); save(shows) of all \(parents) shows"),
        ]
    }

    private func checkAddedChildren(_ path: String, parents: Int, children: Int) throws {
        let db = try RawDatabase(path: path)
        let statement = try db.prepare("""
            SELECT (SELECT count(*) FROM showEpisodes), (SELECT count(*) FROM episodes),
                   (SELECT episodeID FROM showEpisodes WHERE showID = 1 ORDER BY ix LIMIT 1)
            """)
        defer { sqlite3_finalize(statement) }
        _ = try db.stepRow(statement)
        let counts = (0..<3).map { sqlite3_column_int64(statement, Int32($0)) }
        let expected = Int64(parents * (children + 1))
        try check(counts == [expected, expected, SavesModel.newEpisodeID(show: 1)], "added children \(counts)")
    }

    private func resaveUnchanged(_ template: String, count: Int) async throws -> [BenchResult] {
        let workload = "saves: re-save \(count) unchanged objects"
        let condition = "uniqueID IN (SELECT uniqueID FROM episodes ORDER BY uniqueID LIMIT \(count))"
        let raw = try RawDatabase(path: template)
        let rawEpisodes = try rawFetchEpisodes(raw, condition)
        let dbQueue = try GRDBBench.open(template)
        let grdbEpisodes = try GRDBBench.read(dbQueue) { db in try GRDBEpisode.fetchAll(db, sql: "SELECT * FROM episodes WHERE \(condition)") }
        // A copy of its own: the store adds its change log's triggers to the file it opens, and
        // raw sqlite3's and GRDB's UPDATEs must not run them.
        let storePath = try harness.copyDatabase(template, name: "s2-qsdata")
        let store = try await SavesModel.openStore(storePath)
        let episodes = try await store.fetch(ShowEpisode.self, where: condition)
        let markingPath = try harness.copyDatabase(template, name: "s2-qsdata-marking")
        let markingStore = try await SavesModel.openMarkingStore(markingPath)
        let markingEpisodes = try await markingStore.fetch(MarkingShowEpisode.self, where: condition)
        try check(
            [rawEpisodes.count, grdbEpisodes.count, episodes.count, markingEpisodes.count] == [count, count, count, count],
            "fetched episodes")
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {}) {
                try raw.execute("BEGIN")
                let update = try raw.prepare("UPDATE episodes SET title = ?2, duration = ?3 WHERE uniqueID = ?1 AND (title IS NOT ?2 OR duration IS NOT ?3)")
                defer { sqlite3_finalize(update) }
                for episode in rawEpisodes {
                    sqlite3_bind_int64(update, 1, episode.uniqueID)
                    rawBind(update, 2, episode.title)
                    sqlite3_bind_double(update, 3, episode.duration)
                    try raw.stepDone(update)
                    sqlite3_reset(update)
                }
                try raw.execute("COMMIT")
            }),
            (Impl.grdb, harness.trial(setup: {}) {
                try GRDBBench.write(dbQueue) { db in
                    for (episode, original) in zip(grdbEpisodes, grdbEpisodes) {
                        _ = try episode.updateChanges(db, from: original)
                    }
                }
            }),
            (Impl.qsdata, harness.trial(setup: {}) {
                try store.save(episodes)
                try await store.flush()
            }),
            (Impl.qsdataMarking, harness.trial(setup: {}) {
                try markingStore.save(markingEpisodes)
                try await markingStore.flush()
            }),
        ], threading: .sideBySide)
        let log = try await store.recordStatements {
            try store.save(episodes)
            try await store.flush()
        }
        let markingLog = try await markingStore.recordStatements {
            try markingStore.save(markingEpisodes)
            try await markingStore.flush()
        }
        try await store.close()
        try await markingStore.close()
        harness.deleteDatabase(storePath)
        harness.deleteDatabase(markingPath)
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: count, note: "a guarded UPDATE per object, writing nothing"),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], statements: 0, note: "updateChanges(_:from:) against a kept copy"),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], statements: log.count, note: "save(episodes) of fetched, uniqued objects"),
            harness.result(
                workload, Impl.qsdataMarking, samples[Impl.qsdataMarking] ?? [], statements: markingLog.count,
                note: "the same, of uniqued objects that mark what they set"),
        ]
    }

    private func rawFetchEpisodes(_ db: RawDatabase, _ condition: String) throws -> [(uniqueID: Int64, title: String, duration: Double)] {
        let statement = try db.prepare("SELECT uniqueID, title, duration FROM episodes WHERE \(condition)")
        defer { sqlite3_finalize(statement) }
        var episodes: [(uniqueID: Int64, title: String, duration: Double)] = []
        while try db.stepRow(statement) {
            episodes.append((sqlite3_column_int64(statement, 0), rawText(statement, 1) ?? "", sqlite3_column_double(statement, 2)))
        }
        return episodes
    }
}
