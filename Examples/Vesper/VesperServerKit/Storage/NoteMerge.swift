/// The server's note merge rules (PROTOCOL.md, "Notes"), independent of any storage engine.
enum NoteMerge {
    /// The merge predicate: strictly later at millisecond precision; an absent incoming date
    /// never wins, and an absent stored date loses to any incoming date.
    static func incomingWins(_ incoming: Int64?, over existing: Int64?) -> Bool {
        guard let incoming else { return false }
        guard let existing else { return true }
        return incoming > existing
    }

    /// `existing` with every property whose incoming date wins copied from `incoming` (value
    /// and date, an absent value included: that is how clearing tags propagates); nil when no
    /// property changed. `creationDate`, `noteID` and the owner never change.
    static func merge(_ incoming: SyncNote, into existing: SyncNote) -> SyncNote? {
        var merged = existing
        var changed = false
        if incomingWins(incoming.archivedModificationDate, over: existing.archivedModificationDate) {
            merged.archived = incoming.archived
            merged.archivedModificationDate = incoming.archivedModificationDate
            changed = true
        }
        if incomingWins(incoming.textModificationDate, over: existing.textModificationDate) {
            merged.text = incoming.text
            merged.textModificationDate = incoming.textModificationDate
            changed = true
        }
        if incomingWins(incoming.sortDateModificationDate, over: existing.sortDateModificationDate) {
            merged.sortDate = incoming.sortDate
            merged.sortDateModificationDate = incoming.sortDateModificationDate
            changed = true
        }
        if incomingWins(incoming.tagsModificationDate, over: existing.tagsModificationDate) {
            merged.tags = incoming.tags
            merged.tagsModificationDate = incoming.tagsModificationDate
            changed = true
        }
        if incomingWins(incoming.attachmentsModificationDate, over: existing.attachmentsModificationDate) {
            merged.attachments = incoming.attachments
            merged.attachmentsModificationDate = incoming.attachmentsModificationDate
            changed = true
        }
        return changed ? merged : nil
    }

    /// One note per ID, in first-seen order: later copies of an ID merge into the
    /// first by the same per-property rule instead of failing on the unique constraint.
    static func coalesce(_ notes: [SyncNote]) -> [SyncNote] {
        var indexByID: [Int64: Int] = [:]
        var result: [SyncNote] = []
        result.reserveCapacity(notes.count)
        for note in notes {
            if let index = indexByID[note.noteID] {
                if let merged = merge(note, into: result[index]) { result[index] = merged }
            } else {
                indexByID[note.noteID] = result.count
                result.append(note)
            }
        }
        return result
    }

    /// One note to write: a merged or new note, and whether a row exists for it.
    struct Write: Sendable, Equatable {
        var note: SyncNote
        var isNew: Bool
    }

    /// What an upload writes, whatever the engine: one note per ID; tombstoned IDs skipped (a
    /// late upload never resurrects a deleted note); new notes inserted; existing ones merged
    /// property by property and written only when a property changed. The engine reads which
    /// uploaded IDs are `tombstoned` and their `stored` notes, its rows locked for the rest of
    /// its transaction.
    static func writes(for uploaded: [SyncNote], tombstoned: Set<Int64>, stored: [Int64: SyncNote]) -> [Write] {
        var writes: [Write] = []
        for incoming in coalesce(uploaded) where !tombstoned.contains(incoming.noteID) {
            if let existing = stored[incoming.noteID] {
                if let merged = merge(incoming, into: existing) { writes.append(Write(note: merged, isNew: false)) }
            } else {
                writes.append(Write(note: incoming, isNew: true))
            }
        }
        return writes
    }
}
