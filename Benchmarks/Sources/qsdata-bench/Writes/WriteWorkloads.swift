import Foundation
import GRDB
import QSData
import CSQLiteBench

/// Writes: saving new notes with their relationships, marking articles read, deleting notes.
extension Workloads {
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
}
