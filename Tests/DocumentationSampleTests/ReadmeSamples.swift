import Foundation
import QSData

// The Swift samples of README.md, compiled. Each region between `sample-begin` and `sample-end`
// must equal one of the README's Swift blocks (SampleDriftTests checks), so the README can't
// show code that doesn't build.

enum Readme {
    // sample-begin
    final class Note: QSUpdatableObject {      // uniqued classes are patched in place
        let uniqueID: Int64
        var text: String
        var archived: Bool

        init(uniqueID: Int64, text: String) {
            self.uniqueID = uniqueID
            self.text = text
            self.archived = false
        }

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            text = try row["text"]
            archived = try row["archived"]
        }

        func update(from row: QSRow) throws {
            text = try row["text"]
            archived = try row["archived"]
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["text"] = text
            row["archived"] = archived
        }
    }
    // sample-end

    /// The README's tour, run against its own model and schema; returns the store, open.
    @MainActor
    static func tour(databaseURL: URL, modelURL: URL, schemaURL: URL) async throws -> QSStore {
        // sample-begin
        let store = try await QSStore.open(
            at: databaseURL,
            model: QSDataModel(contentsOf: modelURL),
            schema: QSSchema(creationFile: schemaURL),
            types: [Note.self])

        try store.save(Note(uniqueID: 1_000, text: "Hello"))                     // enqueued, not awaited
        let visible = try await store.fetch(Note.self, where: "archived = 0")   // sees the save
        try store.update(Note.self, ids: visible.map(\.uniqueID), set: ["archived": true])  // 1 statement
        let observation = store.observeChanges { change in print(change.updatedIDs(of: Note.self)) }
        try await store.flush()                                                 // waits; throws a failed write
        // sample-end
        withExtendedLifetime(observation) {}
        return store
    }
}
