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
        if includeArchived {
            return try await store.fetchAll(VSTimelineNote.self, orderBy: Self.timelineOrder)
        }
        return try await store.fetch(VSTimelineNote.self, where: "archived = 0", orderBy: Self.timelineOrder)
    }

    /// The timeline notes whose text contains `text` (ignoring ASCII case), newest first.
    public func search(_ text: String, includeArchived: Bool = true) async throws -> [VSTimelineNote] {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let condition = "text LIKE ? ESCAPE '\\'" + (includeArchived ? "" : " AND archived = 0")
        return try await store.fetch(VSTimelineNote.self, where: condition, arguments: [.text("%\(escaped)%")], orderBy: Self.timelineOrder)
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
