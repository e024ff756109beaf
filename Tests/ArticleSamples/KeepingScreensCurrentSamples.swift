import Foundation
import Observation
import QSData

// The Swift samples of the DocC article "Keeping screens current", compiled. Each region between
// `sample-begin` and `sample-end` must equal one of the article's Swift blocks
// (DocumentationSampleTests checks).
struct KeepingScreensCurrentSamples {
    // sample-begin
    final class Note: QSUpdatableObject {
        let uniqueID: Int64
        var text: String
        var archived: Bool
        var sortDate: Date

        init(uniqueID: Int64, text: String, sortDate: Date = .now) {
            self.uniqueID = uniqueID
            self.text = text
            self.archived = false
            self.sortDate = sortDate
        }

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            text = try row["text"]
            archived = try row["archived"]
            sortDate = try row["sortDate"]
        }

        func update(from row: QSRow) throws {
            text = try row["text"]
            archived = try row["archived"]
            sortDate = try row["sortDate"]
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["text"] = text
            row["archived"] = archived
            row["sortDate"] = sortDate
        }
    }

    /// What a timeline screen shows: the newest 100 notes that are not archived.
    @MainActor
    @Observable
    final class TimelineModel {
        let notes: QSLiveQuery<Note>

        init(store: QSStore) async throws {
            notes = try await store.liveQuery(
                QSQuery(Note.self, where: "archived = ?", arguments: [false], orderBy: "sortDate DESC", limit: 100))
        }
    }

    @MainActor
    func run(store: QSStore) async throws {
        let timeline = try await TimelineModel(store: store)
        print(timeline.notes.objects.count)           // the current results

        try store.save(Note(uniqueID: 1_001, text: "Buy milk"))
        try store.save(Note(uniqueID: 1_002, text: "Call Anna"))
        try await timeline.notes.waitUntilCurrent()   // a UI would simply observe `objects`
        print(timeline.notes.objects.map(\.text))     // ["Call Anna", "Buy milk", …]: one re-fetch

        // The same query as a sequence, for code that is not a view:
        for try await notes in store.liveResults(QSQuery(Note.self, where: "archived = 0", orderBy: "sortDate DESC")) {
            print("timeline now has \(notes.count) notes")
            if notes.count > 10 { break }              // leaving the loop stops the query
        }
    }
    // sample-end

    @MainActor
    func countStatements(of live: QSLiveQuery<Note>, saving first: Note, _ second: Note, in store: QSStore) async throws -> QSStatementLog {
        // sample-begin
        let log = try await store.recordStatements {
            try store.save(first)
            try store.save(second)
            try await live.waitUntilCurrent()
        }
        // log: the two INSERTs and one SELECT
        // sample-end
        return log
    }
}
