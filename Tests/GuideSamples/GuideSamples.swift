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
            types: [Note.self, Tag.self, Folder.self])
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

/// The article's typed queries, on the `columns` the plugin generates.
enum TypedQueries {
    @MainActor
    static func use(_ store: QSStore) async throws -> (recent: [Note], inbox: QSLiveQuery<Note>) {
        // sample-begin
        let recent = try await store.fetch(
            Note.self, where: Note.columns.archivedDate == nil && Note.columns.text.like("%swift%"),
            orderBy: [Note.columns.text.ascending], limit: 20)
        try store.update(Note.self, ids: recent.map(\.uniqueID), set: Note.columns.pinned.to(true))    // one UPDATE
        try store.update(Note.self, where: Note.columns.archivedDate != nil, set: Note.columns.pinned.to(false))
        let inbox = try await store.liveQuery(
            QSQuery(Note.self, where: Note.columns.archivedDate == nil,
                    orderBy: [Note.columns.pinned.descending, Note.columns.text.ascending]))
        // sample-end
        return (recent, inbox)
    }
}

/// The article's permanently cached folders, whose generated `notes` relationship is lazy.
struct Folders {
    // sample-begin
    @MainActor
    func open(_ folder: Folder, in store: QSStore) async throws -> [Note] {
        try await store.fetchChildren(folder.notes)     // the notes and their tags' lookup rows: two statements
    }

    @MainActor
    func file(_ note: Note, in folder: Folder, store: QSStore) throws {
        folder.notes.append(note)
        try store.save(folder)                          // writes the note and one lookup row
    }
    // sample-end
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

        func update(column: String, from row: QSRow) throws -> Bool {
            switch column {
            case "text": text = try row["text"]
            default: return false
            }
            return true
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["text"] = text
            row.setRelated("tags", tags)
        }
    }
    // sample-end
}

// The article's hand-written struct (compiled only: the article's model has no `Label`).
// sample-begin
struct Label: QSDataObject, Sendable {
    let uniqueID: String
    var name: String

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
    }
}

extension Label {
    init(row: QSRow) throws {
        self.init(uniqueID: try row["uniqueID"], name: try row["name"])
    }
}
// sample-end

/// The article's schema with migrations (the folder need not exist for the sample to compile).
enum MigratedSchema {
    static func make() throws -> QSSchema {
        // sample-begin
        let schema = try QSSchema(creationFile: Bundle.module.url(forResource: "Notes", withExtension: "sql")!,
                                  migrationsFolder: Bundle.module.url(forResource: "Migrations", withExtension: nil)!)
        // schema.latestVersion == 2
        // sample-end
        return schema
    }
}

/// The article's lazily loaded relationship.
enum LazyLoading {
    final class Episode: QSUpdatableObject {
        let uniqueID: Int64
        init(row: QSRow) throws { uniqueID = try row["uniqueID"] }
        func update(from row: QSRow) throws {}
        func encode(to row: inout QSRowEncoder) { row["uniqueID"] = uniqueID }
    }

    // sample-begin
    final class Podcast: QSUpdatableObject {
        let uniqueID: Int64
        var episodes: QSRelated<Episode>
        init(row: QSRow) throws { uniqueID = try row["uniqueID"]; episodes = try row.related("episodes") }
        func update(from row: QSRow) throws { episodes = try row.related("episodes") }
        func encode(to row: inout QSRowEncoder) { row["uniqueID"] = uniqueID; row.setRelated("episodes", episodes) }
    }
    // sample-end

    @MainActor
    static func use(_ store: QSStore, newEpisode: Episode) async throws {
        // sample-begin
        guard let podcast = try await store.fetch(Podcast.self, id: 1) else { return }  // episodes: IDs only
        let visible = try await store.fetch(Episode.self, ids: podcast.episodes.ids.prefix(20))
        let all = try await store.fetchChildren(podcast.episodes)           // one statement at most
        podcast.episodes.insert(newEpisode, at: 0)
        try store.save(podcast)                                             // writes the new episode and one lookup row
        // sample-end
        withExtendedLifetime((visible, all)) {}
    }
}
