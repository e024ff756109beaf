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
    /// The rows of the long write that `reads-during-write` and `wal-growth` read beside.
    var backgroundWriteRows: Int { scaled(100_000) }
    /// A word few article titles hold: an article's number in its title ("Article 4217 about …"),
    /// a smaller number when the scale leaves fewer than 4,218 articles.
    var rareSearchWord: String { String(min(4217, articles / 2)) }
}

enum Impl {
    static let raw = "raw sqlite3"
    static let grdb = "GRDB records"
    static let grdbRows = "GRDB rows by index"
    static let qsdata = "QSData"
    /// QSData with the types QSDataModelPlugin generates from the data model.
    static let qsdataGenerated = "QSData generated types"
    /// QSData with uniqued classes that mark the properties the app sets (`QSChangeTrackingObject`).
    static let qsdataMarking = "QSData marking changes"
}

/// The workloads. Each does the same work with raw sqlite3, GRDB and QSData on identical data.
@MainActor
final class Workloads {
    let harness: Harness
    let sizes: Sizes
    /// How long each phase of `wal-growth` reads and writes.
    let walGrowthDuration: Duration
    private var noteTemplates: [Int: String] = [:]
    private var articleTemplates: [Int: String] = [:]
    private var noteValuesCache: [Int: [NoteValues]] = [:]

    init(harness: Harness, sizes: Sizes, walGrowthDuration: Duration = .seconds(60)) {
        self.harness = harness
        self.sizes = sizes
        self.walGrowthDuration = walGrowthDuration
    }

    nonisolated static let names = [
        "timeline", "relationships", "save", "mark-read", "delete", "main-actor", "byid", "saves",
        "search-common", "search-rare", "save-search-index", "memory", "reads-during-write", "wal-growth",
        "startup", "live-query", "outside-change",
    ]

    func run(_ name: String) async throws -> [BenchResult] {
        switch name {
        case "timeline": return try await fetchTimeline()
        case "relationships": return try await fetchNotesWithRelationships()
        case "save": return try await saveNotes()
        case "mark-read": return try await markArticlesRead()
        case "delete": return try await deleteNotes()
        case "main-actor": return try await mainActorStall()
        case "byid": return try await fetchByID()
        case "saves": return try await incrementalSaves()
        case "search-common": return try await searchArticles(for: "tempor", label: "search a common word")
        case "search-rare": return try await searchArticles(for: sizes.rareSearchWord, label: "search a rare word")
        case "save-search-index": return try await saveNotesWithSearchIndex()
        case "memory": return try await memory()
        case "reads-during-write": return try await readsDuringWrite()
        case "wal-growth": return try await walGrowth()
        case "startup": return try await openToFirstFetch()
        case "live-query": return try await liveQueryAfterOneChange()
        case "outside-change": return try await outsideChangeReachesLiveQuery()
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

    func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw RawSQLiteError(description: "result check failed: \(message())") }
    }

    // MARK: Fetching 100,000 timeline notes into structs

    func fetchTimeline() async throws -> [BenchResult] {
        let workload = "fetch \(sizes.timelineNotes) timeline notes"
        let count = sizes.timelineNotes
        let path = try notesTemplate(count)
        let raw = try RawDatabase(path: path)
        let dbQueue = try GRDBBench.open(path)
        let store = try await BenchModel.openStore(path)
        let generatedStore = try await BenchModel.openStore(path, generated: true)
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {}) {
                let notes = try RawNotes.fetchTimeline(raw)
                try self.check(notes.count == count, "raw fetched \(notes.count)")
            }),
            (Impl.grdb, harness.trial(setup: {}) {
                let notes = try GRDBBench.fetchTimelineRecords(dbQueue)
                try self.check(notes.count == count, "GRDB fetched \(notes.count)")
            }),
            (Impl.grdbRows, harness.trial(setup: {}) {
                let notes = try GRDBBench.fetchTimelineByIndex(dbQueue)
                try self.check(notes.count == count, "GRDB fetched \(notes.count)")
            }),
            (Impl.qsdata, harness.trial(setup: {}) {
                let notes = try await store.fetchAll(VSTimelineNote.self)
                try self.check(notes.count == count, "QSData fetched \(notes.count)")
            }),
            (Impl.qsdataGenerated, harness.trial(setup: {}) {
                let notes = try await generatedStore.fetchAll(GeneratedTimelineNote.self)
                try self.check(notes.count == count, "QSData fetched \(notes.count) generated notes")
            }),
        ], threading: .oneAtATime)
        try await store.close()
        try await generatedStore.close()
        return [Impl.raw, Impl.grdb, Impl.grdbRows, Impl.qsdata, Impl.qsdataGenerated].map { harness.result(workload, $0, samples[$0] ?? []) }
    }

    // MARK: Fetching 10,000 notes with their ordered tags and attachments

    func fetchNotesWithRelationships() async throws -> [BenchResult] {
        let count = sizes.notesWithRelationships
        let workload = "fetch \(count) notes + tags + attachments"
        // Twice as many notes as fetched: every other note is archived, and only unarchived ones are fetched.
        let path = try notesTemplate(count * 2)
        let raw = try RawDatabase(path: path)
        let dbQueue = try GRDBBench.open(path)
        let store = try await BenchModel.openStore(path)
        // The same check for every implementation, in one pass (a key path such as `\.tags.count`
        // costs a class far more to follow than a struct, which would charge the check to QSData).
        func complete<Note>(_ notes: [Note], tags: (Note) -> Int, attachments: (Note) -> Int) -> Bool {
            notes.count == count && notes.allSatisfy { tags($0) == 2 && attachments($0) == 1 }
        }
        var rawStatements = 0
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {}) {
                let (notes, statements) = try RawNotes.fetchNotes(raw, where: "archived = 0")
                rawStatements = statements
                try self.check(complete(notes, tags: { $0.tags.count }, attachments: { $0.attachments.count }), "raw notes")
            }),
            (Impl.grdb, harness.trial(setup: {}) {
                let notes = try GRDBBench.read(dbQueue) { db in try GRDBBench.fetchNotes(db, archived: false) }
                try self.check(complete(notes, tags: { $0.tags.count }, attachments: { $0.attachments.count }), "GRDB notes")
            }),
            (Impl.qsdata, harness.trial(setup: {}) {
                let notes = try await store.fetch(VSNote.self, where: "archived = 0")
                try self.check(complete(notes, tags: { $0.tags.count }, attachments: { $0.attachments.count }), "QSData notes")
            }),
        ], threading: .oneAtATime)
        // Statement counts, untimed (tracing slows every implementation down).
        let grdbStatements = try GRDBBench.read(dbQueue) { db in
            try GRDBBench.countingStatements(db) { _ = try GRDBBench.fetchNotes(db, archived: false) }
        }
        let log = try await store.recordStatements {
            _ = try await store.fetch(VSNote.self, where: "archived = 0")
        }
        try await store.close()
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: rawStatements),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], statements: grdbStatements),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], statements: log.count),
        ]
    }

    // MARK: Saving 100,000 new notes with two tags and one attachment each

    func saveNotes() async throws -> [BenchResult] {
        let count = sizes.savedNotes
        let workload = "save \(count) notes (2 tags, 1 attachment each)"
        let values = noteValues(count)
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {
                let tags = SampleData.tags.map(RawTag.init)
                let path = try self.emptyDatabase("save-raw")
                return (path: path, notes: values.map { RawNote($0, tags: tags) }, db: try RawDatabase(path: path))
            }, { context in
                try RawNotes.save(context.notes, in: context.db)
            }, teardown: { context in
                try self.checkSavedNotes(context.path, count: count)
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.grdb, harness.trial(setup: {
                let tags = SampleData.tags.map(GRDBTag.init)
                let path = try self.emptyDatabase("save-grdb")
                return (path: path, notes: values.map { GRDBNote($0, tags: tags) }, dbQueue: try GRDBBench.open(path))
            }, { context in
                try GRDBBench.save(context.notes, in: context.dbQueue)
            }, teardown: { context in
                try self.checkSavedNotes(context.path, count: count)
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.qsdata, qsdataSaveTrial(count: count, generated: false) {
                let tags = SampleData.tags.map(VSTag.init)
                return values.map { VSNote($0, tags: tags) }
            }),
            (Impl.qsdataGenerated, qsdataSaveTrial(count: count, generated: true) {
                let tags = SampleData.tags.map(GeneratedTag.init)
                return values.map { GeneratedNote($0, tags: tags) }
            }),
        ], threading: .sideBySide)
        return [Impl.raw, Impl.grdb, Impl.qsdata, Impl.qsdataGenerated].map { harness.result(workload, $0, samples[$0] ?? []) }
    }

    /// A trial of the large save that saves the notes `makeNotes` makes (untimed) through a new QSData store.
    private func qsdataSaveTrial<Note: QSDataObject>(count: Int, generated: Bool, makeNotes: @escaping () -> [Note]) -> Harness.Trial {
        harness.trial(setup: {
            let path = try self.emptyDatabase(generated ? "save-qsdata-generated" : "save-qsdata")
            return (path: path, notes: makeNotes(), store: try await BenchModel.openStore(path, generated: generated))
        }, { context in
            try context.store.save(context.notes)
            try await context.store.flush()
        }, teardown: { context in
            try await context.store.close()
            try self.checkSavedNotes(context.path, count: count)
            self.harness.deleteDatabase(context.path)
        })
    }

    private func checkSavedNotes(_ path: String, count: Int) throws {
        let db = try RawDatabase(path: path)
        let statement = try db.prepare("SELECT (SELECT count(*) FROM notes), (SELECT count(*) FROM tagsNotesLookup), (SELECT count(*) FROM attachmentsNotesLookup), (SELECT count(*) FROM attachments)")
        defer { sqlite3_finalize(statement) }
        _ = try db.stepRow(statement)
        let counts = (0..<4).map { Int(sqlite3_column_int64(statement, Int32($0))) }
        try check(counts == [count, count * 2, count, count], "saved rows \(counts)")
    }

    // MARK: Marking 10,000 of 100,000 articles read

    func markArticlesRead() async throws -> [BenchResult] {
        let total = sizes.articles
        let marked = sizes.markedRead
        let workload = "mark \(marked) of \(total) articles read"
        let template = try articlesTemplate(total)
        let ids = SampleData.spreadIDs(count: marked, of: total, first: SampleData.firstArticleID)
        var patchedCounts: [Int] = []
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "mark-read-raw")
                return (path: path, db: try RawDatabase(path: path))
            }, { context in
                try RawArticles.markRead(ids: ids, in: context.db)
            }, teardown: { context in
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.grdb, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "mark-read-grdb")
                return (path: path, dbQueue: try GRDBBench.open(path))
            }, { context in
                try GRDBBench.write(context.dbQueue) { db in try GRDBBench.markRead(ids: ids, in: db) }
            }, teardown: { context in
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.qsdata, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "mark-read-qsdata")
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
            })),
        ], threading: .sideBySide)
        // One more run, untimed, to count the statements.
        let path = try harness.copyDatabase(template, name: "mark-read-qsdata-log")
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
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: 1, note: "bare UPDATE … IN json_each(?), one transaction"),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], statements: 1, note: "filter(keys:).updateAll"),
            harness.result(
                workload, Impl.qsdata, samples[Impl.qsdata] ?? [], statements: log.count,
                note: "\(total) articles live; \(marked) live objects patched in place: \(allPatched ? "yes" : "NO")"),
        ]
    }

    // MARK: Deleting 10,000 notes with their lookup rows

    func deleteNotes() async throws -> [BenchResult] {
        let total = sizes.timelineNotes
        let deleted = sizes.deletedNotes
        let workload = "delete \(deleted) of \(total) notes + lookup rows"
        let template = try notesTemplate(total)
        let ids = SampleData.spreadIDs(count: deleted, of: total, first: SampleData.firstNoteID)
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "delete-raw")
                return (path: path, db: try RawDatabase(path: path))
            }, { context in
                try RawNotes.delete(ids: ids, in: context.db)
            }, teardown: { context in
                try self.checkDeleted(context.path, remaining: total - deleted)
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.grdb, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "delete-grdb")
                return (path: path, dbQueue: try GRDBBench.open(path))
            }, { context in
                try GRDBBench.write(context.dbQueue) { db in try GRDBBench.delete(ids: ids, in: db) }
            }, teardown: { context in
                try self.checkDeleted(context.path, remaining: total - deleted)
                self.harness.deleteDatabase(context.path)
            })),
            (Impl.qsdata, harness.trial(setup: {
                let path = try self.harness.copyDatabase(template, name: "delete-qsdata")
                return (path: path, store: try await BenchModel.openStore(path))
            }, { context in
                try context.store.delete(VSNote.self, ids: ids)
                try await context.store.flush()
            }, teardown: { context in
                try await context.store.close()
                try self.checkDeleted(context.path, remaining: total - deleted)
                self.harness.deleteDatabase(context.path)
            })),
        ], threading: .sideBySide)
        // Statement counts, untimed.
        let grdbPath = try harness.copyDatabase(template, name: "delete-grdb-log")
        let dbQueue = try GRDBBench.open(grdbPath)
        let grdbStatements = try GRDBBench.write(dbQueue) { db in
            try GRDBBench.countingStatements(db) { try GRDBBench.delete(ids: ids, in: db) }
        }
        harness.deleteDatabase(grdbPath)
        let path = try harness.copyDatabase(template, name: "delete-qsdata-log")
        let store = try await BenchModel.openStore(path)
        let log = try await store.recordStatements {
            try store.delete(VSNote.self, ids: ids)
            try await store.flush()
        }
        try await store.close()
        harness.deleteDatabase(path)
        return [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], statements: 3, note: "3 bare DELETEs … IN json_each(?), one transaction"),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], statements: grdbStatements, note: "deleteAll(keys:) + 2 filter().deleteAll"),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], statements: log.count),
        ]
    }

    private func checkDeleted(_ path: String, remaining: Int) throws {
        let db = try RawDatabase(path: path)
        let statement = try db.prepare("SELECT (SELECT count(*) FROM notes), (SELECT count(*) FROM tagsNotesLookup), (SELECT count(*) FROM attachmentsNotesLookup)")
        defer { sqlite3_finalize(statement) }
        _ = try db.stepRow(statement)
        let counts = (0..<3).map { Int(sqlite3_column_int64(statement, Int32($0))) }
        try check(counts == [remaining, remaining * 2, remaining], "rows after delete \(counts)")
    }

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

    // MARK: Fetch by ID — 10,000 lookups of cached objects

    func fetchByID() async throws -> [BenchResult] {
        let total = sizes.articles
        let lookups = sizes.lookups
        let workload = "fetch-by-ID ×\(lookups) (cached in QSData)"
        let path = try articlesTemplate(total)
        let ids = SampleData.spreadIDs(count: lookups, of: total, first: SampleData.firstArticleID)
        var results: [BenchResult] = []

        let raw = try RawDatabase(path: path)
        let dbQueue = try GRDBBench.open(path)
        let store = try await BenchModel.openStore(path)
        let live = try await store.fetch(Article.self, ids: ids)
        try check(live.count == lookups, "QSData live articles")
        let samples = try await harness.interleave([
            (Impl.raw, harness.trial(setup: {}) {
                try self.check(try RawArticles.fetch(ids: ids, in: raw) == lookups, "raw lookups")
            }),
            (Impl.grdb, harness.trial(setup: {}) {
                try self.check(try GRDBBench.fetch(ids: ids, in: dbQueue) == lookups, "GRDB lookups")
            }),
            (Impl.qsdata, harness.trial(setup: {}) {
                var found = 0
                for id in ids where try await store.fetch(Article.self, id: id) != nil {
                    found += 1
                }
                try self.check(found == lookups, "QSData lookups")
            }),
        ], threading: .oneAtATime)
        results = [
            harness.result(workload, Impl.raw, samples[Impl.raw] ?? [], note: "prepared SELECT … WHERE uniqueID = ?, rebound"),
            harness.result(workload, Impl.grdb, samples[Impl.grdb] ?? [], note: "fetchOne(db, key:) in one read"),
            harness.result(workload, Impl.qsdata, samples[Impl.qsdata] ?? [], note: "await store.fetch(_:id:) per lookup"),
        ]
        var statements = 0
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
