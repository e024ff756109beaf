import Foundation
import QSData

// The Swift samples of the DocC article "Use QSData in your app", compiled. Each region between
// `sample-begin` and `sample-end` must equal one of the article's Swift blocks (SampleDriftTests
// checks).

struct Guide {
    // sample-begin
    final class Note: QSUpdatableObject {
        let uniqueID: Int64
        var text: String
        var tags: [Tag]

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            text = try row["text"]
            tags = try row.related("tags")
        }

        func update(from row: QSRow) throws {
            text = try row["text"]
            tags = try row.related("tags")
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["text"] = text
            row.setRelated("tags", tags)
        }
    }

    struct Tag: QSDataObject {
        let uniqueID: String
        var name: String

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            name = try row["name"]
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["name"] = name
        }
    }
    // sample-end

    // sample-begin
    @MainActor
    func openStore(at url: URL) async throws -> QSStore {
        guard let model = Bundle.module.url(forResource: "Notes", withExtension: "plist"),
              let schema = Bundle.module.url(forResource: "Notes", withExtension: "sql")
        else { throw CocoaError(.fileNoSuchFile) }
        return try await QSStore.open(
            at: url,
            model: QSDataModel(contentsOf: model),
            schema: QSSchema(creationFile: schema),
            types: [Note.self, Tag.self])
    }
    // sample-end

    /// The article's tour of the store's calls.
    @MainActor
    static func use(_ store: QSStore, note: Note, ids: [Int64]) async throws {
        // sample-begin
        try store.save(note)                                       // enqueued; returns at once
        let notes = try await store.fetch(Note.self, where: "text LIKE ?", arguments: ["%swift%"])
        try store.update(Note.self, ids: ids, set: ["text": "…"])  // one UPDATE for any number of IDs
        try store.delete(notes)                                    // one DELETE per table
        let observation = store.observeChanges { change in print(change.updatedIDs(of: Note.self)) }
        try await store.flush()                                    // wait; throws a failed write
        // sample-end
        withExtendedLifetime(observation) {}
    }
}
