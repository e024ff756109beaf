import Foundation
import GRDB
import QSData
import CSQLiteBench

/// The sizes of the workloads, scaled by `--scale`.
struct Sizes {
    let scale: Double

    func scaled(_ count: Int) -> Int { max(1, Int((Double(count) * scale).rounded())) }

    var timelineNotes: Int { scaled(100_000) }
    var notesWithRelationships: Int { scaled(10_000) }
    var savedNotes: Int { scaled(100_000) }
    var articles: Int { scaled(100_000) }
    var markedRead: Int { scaled(10_000) }
    var deletedNotes: Int { scaled(10_000) }
    var stallObjects: Int { scaled(100_000) }
    var lookups: Int { scaled(10_000) }
}

enum Impl {
    static let raw = "raw sqlite3"
    static let grdb = "GRDB records"
    static let grdbRows = "GRDB rows by index"
    static let qsdata = "QSData"
}

/// The workloads. Each does the same work with raw sqlite3, GRDB and QSData on identical data.
@MainActor
final class Workloads {
    let harness: Harness
    let sizes: Sizes
    private var noteTemplates: [Int: String] = [:]
    private var articleTemplates: [Int: String] = [:]
    private var noteValuesCache: [Int: [NoteValues]] = [:]

    init(harness: Harness, sizes: Sizes) {
        self.harness = harness
        self.sizes = sizes
    }

    nonisolated static let names = ["P1", "P2", "P3", "P4", "P5", "P6", "byid"]

    func run(_ name: String) async throws -> [BenchResult] {
        switch name {
        case "P1": return try await fetchTimeline()
        case "P2": return try await fetchNotesWithRelationships()
        case "P3": return try await saveNotes()
        case "P4": return try await markArticlesRead()
        case "P5": return try await deleteNotes()
        case "P6": return try await mainActorStall()
        case "byid": return try await fetchByID()
        default: return []
        }
    }

    // MARK: Data

    func noteValues(_ count: Int) -> [NoteValues] {
        if let cached = noteValuesCache[count] { return cached }
        let values = SampleData.notes(count)
        noteValuesCache[count] = values
        return values
    }

    /// An empty database with the benchmark schema, made with raw sqlite3.
    func emptyDatabase(_ name: String) throws -> String {
        let path = harness.newDatabasePath(name)
        let db = try RawDatabase(path: path)
        try db.execute(BenchModel.schemaSQL())
        return path
    }

    /// A closed database holding `count` notes with two tags and one attachment each.
    func notesTemplate(_ count: Int) throws -> String {
        if let path = noteTemplates[count] { return path }
        let path = try emptyDatabase("notes-template")
        do {
            let db = try RawDatabase(path: path)
            let tags = SampleData.tags.map(RawTag.init)
            try RawNotes.save(noteValues(count).map { RawNote($0, tags: tags) }, in: db)
        }
        noteTemplates[count] = path
        return path
    }

    /// A closed database holding `count` unread articles.
    func articlesTemplate(_ count: Int) throws -> String {
        if let path = articleTemplates[count] { return path }
        let path = try emptyDatabase("articles-template")
        do {
            let db = try RawDatabase(path: path)
            try RawArticles.insert((0..<count).map(SampleData.article), in: db)
        }
        articleTemplates[count] = path
        return path
    }

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw RawSQLiteError(description: "result check failed: \(message())") }
    }

    // MARK: P1 — fetch 100,000 timeline notes into structs

    func fetchTimeline() async throws -> [BenchResult] {
        let workload = "P1 fetch \(sizes.timelineNotes) timeline notes"
        let count = sizes.timelineNotes
        let path = try notesTemplate(count)
        var results: [BenchResult] = []

        let raw = try RawDatabase(path: path)
        results.append(harness.result(workload, Impl.raw, try await harness.measure(setup: {}) {
            let notes = try RawNotes.fetchTimeline(raw)
            try self.check(notes.count == count, "raw fetched \(notes.count)")
        }))

        let dbQueue = try GRDBBench.open(path)
        results.append(harness.result(workload, Impl.grdb, try await harness.measure(setup: {}) {
            let notes = try GRDBBench.fetchTimelineRecords(dbQueue)
            try self.check(notes.count == count, "GRDB fetched \(notes.count)")
        }))
        results.append(harness.result(workload, Impl.grdbRows, try await harness.measure(setup: {}) {
            let notes = try GRDBBench.fetchTimelineByIndex(dbQueue)
            try self.check(notes.count == count, "GRDB fetched \(notes.count)")
        }))

        let store = try await BenchModel.openStore(path)
        results.append(harness.result(workload, Impl.qsdata, try await harness.measure(setup: {}) {
            let notes = try await store.fetchAll(VSTimelineNote.self)
            try self.check(notes.count == count, "QSData fetched \(notes.count)")
        }))
        try await store.close()
        return results
    }

    // MARK: P2 — fetch 10,000 notes with their ordered tags and attachments

    func fetchNotesWithRelationships() async throws -> [BenchResult] {
        let count = sizes.notesWithRelationships
        let workload = "P2 fetch \(count) notes + tags + attachments"
        // Twice as many notes as fetched: every other note is archived, and only unarchived ones are fetched.
        let path = try notesTemplate(count * 2)
        var results: [BenchResult] = []

        let raw = try RawDatabase(path: path)
        var rawStatements = 0
        results.append(harness.result(workload, Impl.raw, try await harness.measure(setup: {}) {
            let (notes, statements) = try RawNotes.fetchNotes(raw, where: "archived = 0")
            rawStatements = statements
            try self.check(notes.count == count && notes.allSatisfy { $0.tags.count == 2 && $0.attachments.count == 1 }, "raw notes")
        }, statements: rawStatements))

        let dbQueue = try GRDBBench.open(path)
        results.append(harness.result(workload, Impl.grdb, try await harness.measure(setup: {}) {
            let notes = try GRDBBench.read(dbQueue) { db in try GRDBBench.fetchNotes(db, archived: false) }
            try self.check(notes.count == count && notes.allSatisfy { $0.tags.count == 2 && $0.attachments.count == 1 }, "GRDB notes")
        }))
        results[results.count - 1].statements = try GRDBBench.read(dbQueue) { db in
            try GRDBBench.countingStatements(db) { _ = try GRDBBench.fetchNotes(db, archived: false) }
        }

        let store = try await BenchModel.openStore(path)
        results.append(harness.result(workload, Impl.qsdata, try await harness.measure(setup: {}) {
            let notes = try await store.fetch(VSNote.self, where: "archived = 0")
            try self.check(notes.count == count && notes.allSatisfy { $0.tags.count == 2 && $0.attachments.count == 1 }, "QSData notes")
        }))
        let log = try await store.recordStatements {
            _ = try await store.fetch(VSNote.self, where: "archived = 0")
        }
        results[results.count - 1].statements = log.count
        try await store.close()
        return results
    }

    // MARK: P3 — save 100,000 new notes with two tags and one attachment each

    func saveNotes() async throws -> [BenchResult] {
        let count = sizes.savedNotes
        let workload = "P3 save \(count) notes (2 tags, 1 attachment each)"
        let values = noteValues(count)
        var results: [BenchResult] = []

        let rawSamples = try await harness.measure(setup: {
            let tags = SampleData.tags.map(RawTag.init)
            let path = try emptyDatabase("p3-raw")
            return (path: path, notes: values.map { RawNote($0, tags: tags) }, db: try RawDatabase(path: path))
        }, { context in
            try RawNotes.save(context.notes, in: context.db)
        }, teardown: { context in
            try self.checkSavedNotes(context.path, count: count)
            self.harness.deleteDatabase(context.path)
        })
        results.append(harness.result(workload, Impl.raw, rawSamples))

        let grdbSamples = try await harness.measure(setup: {
            let tags = SampleData.tags.map(GRDBTag.init)
            let path = try emptyDatabase("p3-grdb")
            return (path: path, notes: values.map { GRDBNote($0, tags: tags) }, dbQueue: try GRDBBench.open(path))
        }, { context in
            try GRDBBench.save(context.notes, in: context.dbQueue)
        }, teardown: { context in
            try self.checkSavedNotes(context.path, count: count)
            self.harness.deleteDatabase(context.path)
        })
        results.append(harness.result(workload, Impl.grdb, grdbSamples))

        let qsSamples = try await harness.measure(setup: {
            let tags = SampleData.tags.map(VSTag.init)
            let path = try emptyDatabase("p3-qsdata")
            return (path: path, notes: values.map { VSNote($0, tags: tags) }, store: try await BenchModel.openStore(path))
        }, { context in
            try context.store.save(context.notes)
            try await context.store.flush()
        }, teardown: { context in
            try await context.store.close()
            try self.checkSavedNotes(context.path, count: count)
            self.harness.deleteDatabase(context.path)
        })
        results.append(harness.result(workload, Impl.qsdata, qsSamples))
        return results
    }

    private func checkSavedNotes(_ path: String, count: Int) throws {
        let db = try RawDatabase(path: path)
        let statement = try db.prepare("SELECT (SELECT count(*) FROM notes), (SELECT count(*) FROM tagsNotesLookup), (SELECT count(*) FROM attachmentsNotesLookup), (SELECT count(*) FROM attachments)")
        defer { sqlite3_finalize(statement) }
        _ = try db.stepRow(statement)
        let counts = (0..<4).map { Int(sqlite3_column_int64(statement, Int32($0))) }
        try check(counts == [count, count * 2, count, count], "saved rows \(counts)")
    }

    // MARK: P4 — mark 10,000 of 100,000 articles read

    func markArticlesRead() async throws -> [BenchResult] {
        let total = sizes.articles
        let marked = sizes.markedRead
        let workload = "P4 mark \(marked) of \(total) articles read"
        let template = try articlesTemplate(total)
        let ids = SampleData.spreadIDs(count: marked, of: total, first: SampleData.firstArticleID)
        var results: [BenchResult] = []

        let rawSamples = try await harness.measure(setup: {
            let path = try harness.copyDatabase(template, name: "p4-raw")
            return (path: path, db: try RawDatabase(path: path))
        }, { context in
            try RawArticles.markRead(ids: ids, in: context.db)
        }, teardown: { context in
            self.harness.deleteDatabase(context.path)
        })
        results.append(harness.result(workload, Impl.raw, rawSamples, statements: 1, note: "bare UPDATE … IN json_each(?)"))

        let grdbSamples = try await harness.measure(setup: {
            let path = try harness.copyDatabase(template, name: "p4-grdb")
            return (path: path, dbQueue: try GRDBBench.open(path))
        }, { context in
            try GRDBBench.write(context.dbQueue) { db in try GRDBBench.markRead(ids: ids, in: db) }
        }, teardown: { context in
            self.harness.deleteDatabase(context.path)
        })
        results.append(harness.result(workload, Impl.grdb, grdbSamples, statements: 1, note: "filter(keys:).updateAll"))

        var patchedCounts: [Int] = []
        let qsSamples = try await harness.measure(setup: {
            let path = try harness.copyDatabase(template, name: "p4-qsdata")
            let store = try await BenchModel.openStore(path)
            let live = try await store.fetchAll(Article.self)
            return (path: path, store: store, live: live)
        }, { context in
            try context.store.update(Article.self, ids: ids, set: ["read": true])
            try await context.store.flush()
        }, teardown: { context in
            patchedCounts.append(context.live.filter(\.read).count)
            try await context.store.close()
            self.harness.deleteDatabase(context.path)
        })
        // One more run, untimed, to count the statements.
        let path = try harness.copyDatabase(template, name: "p4-qsdata-log")
        let store = try await BenchModel.openStore(path)
        let live = try await store.fetchAll(Article.self)
        let log = try await store.recordStatements {
            try store.update(Article.self, ids: ids, set: ["read": true])
            try await store.flush()
        }
        try check(live.filter(\.read).count == marked, "live articles patched")
        try await store.close()
        harness.deleteDatabase(path)
        let allPatched = patchedCounts.allSatisfy { $0 == marked }
        try check(allPatched, "patched counts \(patchedCounts)")
        results.append(harness.result(
            workload, Impl.qsdata, qsSamples, statements: log.count,
            note: "\(total) articles live; \(marked) live objects patched in place: \(allPatched ? "yes" : "NO")"))
        return results
    }

    // MARK: P5 — delete 10,000 notes with their lookup rows

    func deleteNotes() async throws -> [BenchResult] {
        let total = sizes.timelineNotes
        let deleted = sizes.deletedNotes
        let workload = "P5 delete \(deleted) of \(total) notes + lookup rows"
        let template = try notesTemplate(total)
        let ids = SampleData.spreadIDs(count: deleted, of: total, first: SampleData.firstNoteID)
        var results: [BenchResult] = []

        let rawSamples = try await harness.measure(setup: {
            let path = try harness.copyDatabase(template, name: "p5-raw")
            return (path: path, db: try RawDatabase(path: path))
        }, { context in
            try RawNotes.delete(ids: ids, in: context.db)
        }, teardown: { context in
            try self.checkDeleted(context.path, remaining: total - deleted)
            self.harness.deleteDatabase(context.path)
        })
        results.append(harness.result(workload, Impl.raw, rawSamples, statements: 3, note: "3 bare DELETEs … IN json_each(?)"))

        var grdbStatements = 0
        let grdbSamples = try await harness.measure(setup: {
            let path = try harness.copyDatabase(template, name: "p5-grdb")
            return (path: path, dbQueue: try GRDBBench.open(path))
        }, { context in
            try GRDBBench.write(context.dbQueue) { db in try GRDBBench.delete(ids: ids, in: db) }
        }, teardown: { context in
            try self.checkDeleted(context.path, remaining: total - deleted)
            self.harness.deleteDatabase(context.path)
        })
        do {
            let path = try harness.copyDatabase(template, name: "p5-grdb-log")
            let dbQueue = try GRDBBench.open(path)
            grdbStatements = try GRDBBench.write(dbQueue) { db in
                try GRDBBench.countingStatements(db) { try GRDBBench.delete(ids: ids, in: db) }
            }
            harness.deleteDatabase(path)
        }
        results.append(harness.result(workload, Impl.grdb, grdbSamples, statements: grdbStatements))

        let qsSamples = try await harness.measure(setup: {
            let path = try harness.copyDatabase(template, name: "p5-qsdata")
            return (path: path, store: try await BenchModel.openStore(path))
        }, { context in
            try context.store.delete(VSNote.self, ids: ids)
            try await context.store.flush()
        }, teardown: { context in
            try await context.store.close()
            try self.checkDeleted(context.path, remaining: total - deleted)
            self.harness.deleteDatabase(context.path)
        })
        let path = try harness.copyDatabase(template, name: "p5-qsdata-log")
        let store = try await BenchModel.openStore(path)
        let log = try await store.recordStatements {
            try store.delete(VSNote.self, ids: ids)
            try await store.flush()
        }
        try await store.close()
        harness.deleteDatabase(path)
        results.append(harness.result(workload, Impl.qsdata, qsSamples, statements: log.count))
        return results
    }

    private func checkDeleted(_ path: String, remaining: Int) throws {
        let db = try RawDatabase(path: path)
        let statement = try db.prepare("SELECT (SELECT count(*) FROM notes), (SELECT count(*) FROM tagsNotesLookup), (SELECT count(*) FROM attachmentsNotesLookup)")
        defer { sqlite3_finalize(statement) }
        _ = try db.stepRow(statement)
        let counts = (0..<3).map { Int(sqlite3_column_int64(statement, Int32($0))) }
        try check(counts == [remaining, remaining * 2, remaining], "rows after delete \(counts)")
    }

    // MARK: P6 — the main actor while QSData saves 100,000 notes and fetches them all

    func mainActorStall() async throws -> [BenchResult] {
        let count = sizes.stallObjects
        let workload = "P6 main actor during save+fetch of \(count) notes"
        let values = noteValues(count)
        let ticker = MainActorTicker()
        var maxGaps: [Double] = []
        var p99Gaps: [Double] = []
        var saveCallTimes: [Double] = []
        let clock = ContinuousClock()

        let totals = try await harness.measure(setup: {
            let tags = SampleData.tags.map(VSTag.init)
            let path = try emptyDatabase("p6-qsdata")
            return (path: path, notes: values.map { VSNote($0, tags: tags) }, store: try await BenchModel.openStore(path))
        }, { context in
            ticker.start()
            try await Task.sleep(for: .milliseconds(20))
            let saveStart = clock.now
            try context.store.save(context.notes)
            saveCallTimes.append(saveStart.duration(to: clock.now).milliseconds)
            try await context.store.flush()
            let fetched = try await context.store.fetchAll(VSNote.self)
            try await Task.sleep(for: .milliseconds(20))
            await ticker.stop()
            try self.check(fetched.count == count, "P6 fetched \(fetched.count)")
            maxGaps.append(ticker.intervals.max() ?? 0)
            p99Gaps.append(Statistics.percentile(ticker.intervals, 0.99))
        }, teardown: { context in
            try await context.store.close()
            self.harness.deleteDatabase(context.path)
        })
        // The warm-up's gaps are the first entries; keep the timed repetitions'.
        let timedMax = Array(maxGaps.dropFirst())
        let timedP99 = Array(p99Gaps.dropFirst())
        let timedSave = Array(saveCallTimes.dropFirst())
        return [
            harness.result(workload, "QSData save+flush+fetchAll", totals, note: "total wall time, ticker running"),
            harness.result(workload, "QSData main-actor max gap", timedMax, note: "target ≤ 16 ms"),
            harness.result(workload, "QSData main-actor p99 gap", timedP99),
            harness.result(workload, "QSData save() call on main", timedSave, note: "synchronous part of save(_:)"),
        ]
    }

    // MARK: Fetch by ID — 10,000 lookups of cached objects

    func fetchByID() async throws -> [BenchResult] {
        let total = sizes.articles
        let lookups = sizes.lookups
        let workload = "fetch-by-ID ×\(lookups) (cached in QSData)"
        let path = try articlesTemplate(total)
        let ids = SampleData.spreadIDs(count: lookups, of: total, first: SampleData.firstArticleID)
        var results: [BenchResult] = []

        let raw = try RawDatabase(path: path)
        results.append(harness.result(workload, Impl.raw, try await harness.measure(setup: {}) {
            try self.check(try RawArticles.fetch(ids: ids, in: raw) == lookups, "raw lookups")
        }, note: "prepared SELECT … WHERE uniqueID = ?, rebound"))

        let dbQueue = try GRDBBench.open(path)
        results.append(harness.result(workload, Impl.grdb, try await harness.measure(setup: {}) {
            try self.check(try GRDBBench.fetch(ids: ids, in: dbQueue) == lookups, "GRDB lookups")
        }, note: "fetchOne(db, key:) in one read"))

        let store = try await BenchModel.openStore(path)
        let live = try await store.fetch(Article.self, ids: ids)
        try check(live.count == lookups, "QSData live articles")
        var statements = 0
        results.append(harness.result(workload, Impl.qsdata, try await harness.measure(setup: {}) {
            var found = 0
            for id in ids where try await store.fetch(Article.self, id: id) != nil {
                found += 1
            }
            try self.check(found == lookups, "QSData lookups")
        }, note: "await store.fetch(_:id:) per lookup"))
        let log = try await store.recordStatements {
            for id in ids.prefix(100) { _ = try await store.fetch(Article.self, id: id) }
        }
        statements = log.count
        results[results.count - 1].statements = statements
        // The looked-up articles must stay alive (uniqued instances are cached weakly).
        withExtendedLifetime(live) {}
        try await store.close()
        return results
    }
}
