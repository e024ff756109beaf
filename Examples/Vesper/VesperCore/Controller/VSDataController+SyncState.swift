import Foundation
import QSData

/// What the sync client reads and clears besides note values: which notes and deletions wait
/// for upload, tags from the server, deletions from the server, attachment IDs in use.
extension VSDataController {
    /// A note as it was selected for upload: its ID and the local modification date then.
    public struct UploadMark: Sendable, Equatable {
        public var noteID: Int64
        public var modificationDate: Date

        public init(noteID: Int64, modificationDate: Date) {
            self.noteID = noteID
            self.modificationDate = modificationDate
        }
    }

    /// The notes changed here since their last upload (a local `modificationDate` is set), except
    /// tutorial notes (IDs 0…999), which are never uploaded. Oldest IDs first.
    public func notesToUpload() async throws -> [VSNote] {
        try await store.flush()
        return try await store.fetch(
            VSNote.self, where: "modificationDate IS NOT NULL AND uniqueID > ?",
            arguments: [.integer(Self.lastTutorialNoteID)], orderBy: "uniqueID")
    }

    /// How many notes wait for upload.
    public func countOfNotesToUpload() async throws -> Int {
        try await store.count(VSNote.self, where: "modificationDate IS NOT NULL AND uniqueID > ?",
                              arguments: [.integer(Self.lastTutorialNoteID)])
    }

    /// Clears the local modification date of uploaded notes, unless the note changed again after
    /// it was selected (its date moved), in which case it stays marked for the next upload.
    public func syncDidUploadNotes(_ marks: [UploadMark]) throws {
        guard !marks.isEmpty else { return }
        let pairs = marks.map { "[\($0.noteID),\($0.modificationDate.timeIntervalSince1970)]" }.joined(separator: ",")
        // One statement whatever the number; dates compare within a microsecond, since a REAL
        // printed and parsed back need not be the identical double.
        let condition = """
            modificationDate IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(?) AS mark
              WHERE json_extract(mark.value, '$[0]') = notes.uniqueID
                AND abs(json_extract(mark.value, '$[1]') - notes.modificationDate) < 0.000001)
            """
        try store.update(VSNote.self, where: condition, arguments: [.text("[\(pairs)]")],
                         set: ["modificationDate": Date?.none], source: .sync)
    }

    /// Applies a tag from the server: creates it with the server's name date, or sets the name
    /// and date on the existing tag. Returns nil when the name is blank.
    @discardableResult
    public func applySyncTag(name: String, modificationDate: Date?) throws -> VSTag? {
        guard let candidate = VSTag(name: name, date: modificationDate), candidate.name.count <= VSTag.maximumNameLength else {
            return nil
        }
        if let tag = try tagPool()[candidate.uniqueID] {
            tag.name = candidate.name
            tag.nameModificationDate = modificationDate
            try store.save(tag, source: .sync)
            return tag
        }
        try store.save(candidate, source: .sync)
        return candidate
    }

    /// Deletes notes the server says were deleted elsewhere, with their attachments. Unlike a
    /// user's delete, nothing is left in deletedNotes: the server already knows. Returns the IDs
    /// of the notes that existed here.
    @discardableResult
    public func applySyncDeletedNotes(ids: [Int64]) async throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        let existing = try await store.fetchIDs(
            VSNote.self, where: "uniqueID IN (SELECT value FROM json_each(?))", arguments: [.text(Self.jsonList(ids))])
        guard !existing.isEmpty else { return [] }
        let notes = try await store.fetch(VSNote.self, ids: existing)
        let attachmentIDs = notes.flatMap { $0.attachments.map(\.uniqueID) }
        try store.delete(VSNote.self, ids: existing, source: .sync) { connection, deleted in
            // The schema's trigger recorded each delete; these are not deletions to tell the server.
            try connection.execute("DELETE FROM deletedNotes WHERE uniqueID IN (SELECT value FROM json_each(?))",
                                   [.text(Self.jsonList(deleted))])
        }
        if !attachmentIDs.isEmpty {
            try store.delete(VSAttachment.self, ids: attachmentIDs, source: .sync)
        }
        try await store.flush()
        attachmentStorage.removeFiles(uniqueIDs: attachmentIDs)
        return existing
    }

    /// Forgets deletions the server has acknowledged. Deletions recorded since stay.
    public func syncDidUploadDeletedNotes(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await store.execute("DELETE FROM deletedNotes WHERE uniqueID IN (SELECT value FROM json_each(?))",
                                [.text(Self.jsonList(ids))])
    }

    /// The attachments that notes use, by uniqueID.
    public func referencedAttachments() async throws -> [VSAttachment] {
        try await store.flush()
        return try await store.fetch(
            VSAttachment.self, where: "uniqueID IN (SELECT attachmentID FROM attachmentsNotesLookup)", orderBy: "uniqueID")
    }

    /// Tutorial notes have IDs 0…999, identical on every device; they are never uploaded.
    public static let lastTutorialNoteID: Int64 = 999

    nonisolated static func jsonList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}

extension VSDataController {
    /// Marks every note for upload, for the first sync with an account (logging in to an
    /// account uploads all local notes). Per-property dates stay as they are.
    public func markAllNotesForUpload() throws {
        try store.update(VSNote.self, where: "modificationDate IS NULL", set: ["modificationDate": now()], source: .sync)
    }
}
