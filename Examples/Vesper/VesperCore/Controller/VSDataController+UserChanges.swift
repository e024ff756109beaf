import Foundation
import QSData

/// Changes the person using the app makes. Each sets the value, its per-property modification
/// date and the note's local `modificationDate` (which selects the note for upload), then saves.
/// Input is checked before anything changes: a refused change leaves memory and database as they were.
extension VSDataController {
    /// Creates and saves a note with `text` and tags named `tagNames` (in that order).
    /// - Throws: ``VesperError/emptyText`` or ``VesperError/emptyTagName``.
    @discardableResult
    public func userDidCreateNote(text: String, tagNames: [String] = []) async throws -> VSNote {
        try Self.checkText(text)
        let tags = try resolveTags(named: tagNames)
        let note = makeNote(id: try await makeNoteID(), text: text, tags: tags)
        try store.save(note)
        return note
    }

    /// Creates and saves many notes in one transaction: each draft is its text and tag names.
    /// - Throws: ``VesperError/emptyText`` or ``VesperError/emptyTagName`` before anything is saved.
    @discardableResult
    public func userDidCreateNotes(_ drafts: [(text: String, tagNames: [String])]) async throws -> [VSNote] {
        var pool = try tagPool()
        let resolved = try drafts.map { draft in
            try Self.checkText(draft.text)
            return (text: draft.text, tags: try resolveTags(named: draft.tagNames, pool: &pool))
        }
        var notes: [VSNote] = []
        var chosen: Set<Int64> = []
        for draft in resolved {
            var id = try await makeNoteID()
            while chosen.contains(id) { id = try await makeNoteID() }
            chosen.insert(id)
            notes.append(makeNote(id: id, text: draft.text, tags: draft.tags))
        }
        try store.save(notes)
        return notes
    }

    private func makeNote(id: Int64, text: String, tags: [VSTag]) -> VSNote {
        let date = now()
        let note = VSNote(uniqueID: id, text: text, creationDate: date)
        note.tags = tags
        note.textModificationDate = date
        note.sortDateModificationDate = date
        note.archivedModificationDate = date
        note.tagsModificationDate = date
        note.attachmentsModificationDate = date
        note.modificationDate = date
        note.recalculate()
        return note
    }

    /// Replaces the note's text; truncatedText and links follow.
    /// - Throws: ``VesperError/emptyText``.
    public func userDidUpdateText(_ text: String, of note: VSNote) throws {
        try Self.checkText(text)
        let date = now()
        note.text = text
        note.textModificationDate = date
        note.modificationDate = date
        note.recalculate()
        try store.save(note)
    }

    /// Archives the notes: one UPDATE statement whatever their number; every live instance
    /// (VSNote and cached VSTimelineNote alike) reflects it at once.
    public func userDidMarkAsArchived(_ notes: [VSNote]) throws {
        try userDidSetArchived(true, on: notes)
    }

    /// Brings the notes back from the archive, like ``userDidMarkAsArchived(_:)``.
    public func userDidMarkAsUnarchived(_ notes: [VSNote]) throws {
        try userDidSetArchived(false, on: notes)
    }

    private func userDidSetArchived(_ archived: Bool, on notes: [VSNote]) throws {
        guard !notes.isEmpty else { return }
        let date = now()
        try store.update(
            VSNote.self, ids: notes.map(\.uniqueID),
            set: ["archived": archived, "archivedModificationDate": date, "modificationDate": date])
    }

    /// Sets the note's tags to the tags named `names`, in that order. Names that differ only in
    /// case or spacing are one tag; a tag that exists keeps its name.
    /// - Throws: ``VesperError/emptyTagName``.
    public func userDidUpdateTags(_ names: [String], of note: VSNote) throws {
        let tags = try resolveTags(named: names)
        guard tags.map(\.uniqueID) != note.tags.map(\.uniqueID) else { return }
        let date = now()
        note.tags = tags
        note.tagsModificationDate = date
        note.modificationDate = date
        try store.save(note)
    }

    /// Adds tags after the note's existing ones; names it already has are ignored.
    public func userDidAddTags(_ names: [String], to note: VSNote) throws {
        try userDidUpdateTags(note.tags.map(\.name) + names, of: note)
    }

    /// Removes the tags named `names` from the note.
    /// - Throws: ``VesperError/tagNotOnNote(name:noteID:)`` when the note lacks one of them.
    public func userDidRemoveTags(_ names: [String], from note: VSNote) throws {
        let removed = Set(names.map(VSTag.uniqueID(forName:)))
        if let missing = names.first(where: { name in !note.tags.contains { $0.uniqueID == VSTag.uniqueID(forName: name) } }) {
            throw VesperError.tagNotOnNote(name: missing, noteID: note.uniqueID)
        }
        try userDidUpdateTags(note.tags.filter { !removed.contains($0.uniqueID) }.map(\.name), of: note)
    }

    /// Renames a tag. Only the case may change ("ice cream" → "Ice Cream"); the new name then
    /// shows on every note with the tag, since they all hold the same cached instance.
    /// - Throws: ``VesperError/tagNotFound(_:)``, ``VesperError/emptyTagName`` or
    ///   ``VesperError/tagRenameNotCaseOnly(from:to:)``.
    @discardableResult
    public func userDidRenameTag(_ oldName: String, to newName: String) throws -> VSTag {
        guard let tag = try tag(named: oldName) else { throw VesperError.tagNotFound(oldName) }
        let cleaned = VSTag.cleanedName(newName)
        guard !cleaned.isEmpty else { throw VesperError.emptyTagName }
        guard VSTag.uniqueID(forName: cleaned) == tag.uniqueID else {
            throw VesperError.tagRenameNotCaseOnly(from: tag.name, to: cleaned)
        }
        guard cleaned != tag.name else { return tag }
        tag.name = cleaned
        tag.nameModificationDate = now()
        try store.save(tag)
        return tag
    }

    /// Stores the picture at `fileURL` in the attachments folder and adds it after the note's
    /// other attachments; the note's thumbnail follows.
    /// - Throws: ``VesperError/unreadableAttachment(path:reason:)``,
    ///   ``VesperError/unsupportedAttachment(path:)`` or ``VesperError/cannotStoreAttachment(path:reason:)``.
    @discardableResult
    public func userDidAddAttachment(fileAt fileURL: URL, to note: VSNote) throws -> VSAttachment {
        let (data, info) = try attachmentStorage.readImage(at: fileURL)
        let attachment = VSAttachment(
            uniqueID: UUID().uuidString.lowercased(), mimeType: info.mimeType, width: info.width, height: info.height)
        try attachmentStorage.store(data, uniqueID: attachment.uniqueID)
        let date = now()
        note.attachments.append(attachment)
        note.attachmentsModificationDate = date
        note.modificationDate = date
        note.recalculate()
        try store.save(note)
        return attachment
    }

    /// Deletes the notes: one statement for the notes and one per lookup table, whatever their
    /// number, in one transaction; the schema's trigger records each ID in deletedNotes in that
    /// same transaction. Their attachments (rows and files) go too.
    public func userDidDeleteNotes(_ notes: [VSNote]) async throws {
        guard !notes.isEmpty else { return }
        let attachmentIDs = notes.flatMap { $0.attachments.map(\.uniqueID) }
        try store.delete(notes)
        if !attachmentIDs.isEmpty {
            try store.delete(VSAttachment.self, ids: attachmentIDs)
        }
        try await store.flush()
        attachmentStorage.removeFiles(uniqueIDs: attachmentIDs)
    }

    // MARK: Helpers

    static func checkText(_ text: String) throws {
        guard text.contains(where: { !$0.isWhitespace }) else { throw VesperError.emptyText }
    }

    /// The tags named `names`, in order, without duplicates: existing tags from the cache, new
    /// ones created (saved along with the note that uses them).
    func resolveTags(named names: [String]) throws -> [VSTag] {
        var pool = try tagPool()
        return try resolveTags(named: names, pool: &pool)
    }

    /// Like ``resolveTags(named:)``, giving new tags `newTagDate` as their name date.
    func resolveTags(named names: [String], newTagDate: Date?) throws -> [VSTag] {
        var pool = try tagPool()
        return try resolveTags(named: names, pool: &pool, newTagDate: newTagDate)
    }

    /// Every tag by uniqueID, from the cache.
    func tagPool() throws -> [String: VSTag] {
        Dictionary(uniqueKeysWithValues: try store.cachedObjects(of: VSTag.self).map { ($0.uniqueID, $0) })
    }

    /// Resolves names against `pool` (existing and already-created tags), adding new tags to it.
    private func resolveTags(named names: [String], pool: inout [String: VSTag]) throws -> [VSTag] {
        try resolveTags(named: names, pool: &pool, newTagDate: now())
    }

    private func resolveTags(named names: [String], pool: inout [String: VSTag], newTagDate: Date?) throws -> [VSTag] {
        var tags: [VSTag] = []
        for name in names {
            guard let candidate = VSTag(name: name, date: newTagDate) else { throw VesperError.emptyTagName }
            guard candidate.name.count <= VSTag.maximumNameLength else {
                throw VesperError.tagNameTooLong(limit: VSTag.maximumNameLength)
            }
            if tags.contains(where: { $0.uniqueID == candidate.uniqueID }) { continue }
            if let tag = pool[candidate.uniqueID] {
                tags.append(tag)
            } else {
                pool[candidate.uniqueID] = candidate
                tags.append(candidate)
            }
        }
        return tags
    }
}
