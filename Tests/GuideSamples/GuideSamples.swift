import Foundation
import QSData

// The Swift samples of the DocC article "Use QSData in your app", compiled against the types the
// build plugin generates from Notes.plist (the article's model). Each region between
// `sample-begin` and `sample-end` must equal one of the article's Swift blocks
// (DocumentationSampleTests checks).

// sample-begin
extension Note {
    convenience init(text: String) {
        self.init(uniqueID: Int64.random(in: 1 ... .max), text: text)
    }

    var isArchived: Bool { archivedDate != nil }

    func awakeFromFetch() {
        // Called once after the note is read from the database.
    }
}

extension Tag: Identifiable {
    public var id: String { uniqueID }
}
// sample-end

struct Guide {
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

/// The article's hand-written alternative to the generated `Note`.
enum HandWritten {
    // sample-begin
    final class Note: QSUpdatableObject {
        let uniqueID: Int64
        var text: String
        var tags: [Tag]
        var layoutCache: [Int: Double] = [:]     // not persisted: why this type is hand-written

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
    // sample-end
}
