import Foundation
import QSData

/// Reading notes and tags.
extension VSDataController {
    /// The note with `id`.
    /// - Throws: ``VesperError/noteNotFound(_:)`` when there is none.
    public func note(id: Int64) async throws -> VSNote {
        guard let note = try await store.fetch(VSNote.self, id: id) else { throw VesperError.noteNotFound(id) }
        return note
    }

    /// The notes with these IDs, in the same order.
    /// - Throws: ``VesperError/noteNotFound(_:)`` for the first ID with no note.
    public func notes(ids: [Int64]) async throws -> [VSNote] {
        var seen: Set<Int64> = []
        let ids = ids.filter { seen.insert($0).inserted }
        let notes = try await store.fetch(VSNote.self, ids: ids)
        if notes.count != ids.count, let missing = ids.first(where: { id in !notes.contains { $0.uniqueID == id } }) {
            throw VesperError.noteNotFound(missing)
        }
        return notes
    }

    /// Every note, newest sort date first, with tags and attachments.
    public func allNotes() async throws -> [VSNote] {
        try await store.fetchAll(VSNote.self, orderBy: Self.timelineOrder)
    }

    /// The timeline: the light notes, newest sort date first; archived notes only when asked.
    public func timeline(includeArchived: Bool = false) async throws -> [VSTimelineNote] {
        let query = Self.timelineQuery(includeArchived: includeArchived)
        return try await store.fetch(VSTimelineNote.self, where: query.condition ?? "1", orderBy: query.orderBy)
    }

    /// The timeline kept current: fetched again after each burst of changes to notes, and never
    /// for changes to tags or attachments (the light type loads neither).
    public func liveTimeline(includeArchived: Bool = false) async throws -> QSLiveQuery<VSTimelineNote> {
        try await store.liveQuery(Self.timelineQuery(includeArchived: includeArchived))
    }

    static func timelineQuery(includeArchived: Bool) -> QSQuery<VSTimelineNote> {
        QSQuery(VSTimelineNote.self, where: includeArchived ? nil : "archived = 0", orderBy: timelineOrder)
    }

    /// The timeline notes whose text has every word of `text` (the last word may be the start of
    /// a word), best match first, each with the passage that matched, its words in [brackets].
    /// Full-text search (FTS5): any text is safe to pass.
    public func search(_ text: String, includeArchived: Bool = true, limit: Int? = nil) async throws -> [VSSearchResult] {
        try await store.search(
            VSTimelineNote.self, for: text, where: includeArchived ? nil : "archived = 0", limit: limit,
            snippet: QSSnippetStyle(before: "[", after: "]", maxTokens: 10)
        ).map { VSSearchResult(note: $0.object, snippet: $0.snippet ?? "") }
    }

    /// Every tag, by name. Served from the tag cache: runs no SQL.
    public func tags() throws -> [VSTag] {
        try store.cachedObjects(of: VSTag.self).sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }

    /// The tag named `name` (whitespace and case don't matter), from the cache; nil when none.
    public func tag(named name: String) throws -> VSTag? {
        let uniqueID = VSTag.uniqueID(forName: name)
        return try store.cachedObjects(of: VSTag.self).first { $0.uniqueID == uniqueID }
    }

    /// Every tag with the number of notes that have it, by name.
    public func tagsWithNoteCounts() async throws -> [(tag: VSTag, noteCount: Int)] {
        let rows = try await store.fetchRows("SELECT tagID, count(*) FROM tagsNotesLookup GROUP BY tagID")
        var counts: [String: Int] = [:]
        for row in rows where row.count == 2 {
            if case .text(let tagID) = row[0], case .integer(let count) = row[1] { counts[tagID] = Int(count) }
        }
        return try tags().map { ($0, counts[$0.uniqueID] ?? 0) }
    }

    /// The IDs recorded in deletedNotes, for sync to tell the server.
    public func deletedNoteIDs() async throws -> [Int64] {
        try await store.fetchRows("SELECT uniqueID FROM deletedNotes ORDER BY uniqueID").compactMap { row in
            if case .integer(let id) = row.first { return id }
            return nil
        }
    }

    static let timelineOrder = "sortDate DESC, uniqueID DESC"
}
