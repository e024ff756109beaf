import Foundation
import GRDB
import QSData
import CSQLiteBench

/// Fetches: a timeline of notes into structs, notes with their relationships, and cached objects by ID.
extension Workloads {
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
