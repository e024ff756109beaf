import Foundation
import QSData

// The Swift samples of README.md, compiled against the types the build plugin generates from
// Notes.plist (the README's model). Each region between `sample-begin` and `sample-end` must
// equal one of the README's Swift blocks (DocumentationSampleTests checks).

// sample-begin
extension Note {
    func archive(on date: Date) {
        archived = true
        archivedDate = date
    }
}
// sample-end

enum Readme {
    /// The README's tour, run against its own model and schema; returns the store, open.
    @MainActor
    static func tour(databaseURL: URL, modelURL: URL, schemaURL: URL) async throws -> QSStore {
        // sample-begin
        let store = try await QSStore.open(
            at: databaseURL,
            model: QSDataModel(contentsOf: modelURL),
            schema: QSSchema(creationFile: schemaURL),
            types: [Note.self])

        try store.save(Note(uniqueID: 1_000, archived: false, text: "Hello"))    // enqueued, not awaited
        let visible = try await store.fetch(Note.self, where: "archived = 0")   // sees the save
        try store.update(Note.self, ids: visible.map(\.uniqueID), set: ["archived": true])  // 1 statement
        let observation = store.observeChanges { change in print(change.updatedIDs(of: Note.self)) }
        try await store.flush()                                                 // waits; throws a failed write

        let imported = (2_000..<12_000).map { Note(uniqueID: $0, archived: false, text: "Imported \($0)") }
        let importing = try store.performInBackground { try store.save(imported) }   // a long write
        let shown = try await store.fetch(Note.self, where: "archived = 0", limit: 200) // doesn't wait for it
        try await importing.committed()
        // sample-end
        withExtendedLifetime(observation) {}
        precondition(shown.count <= 200)
        return store
    }
}
