import Foundation
import QSData

/// Tags, tombstones and notes: each call is one transaction that first checks the login. No
/// unbounded `IN` lists: the uploaded note IDs travel as one JSON array parameter (`json_each`),
/// and rows are written one at a time through cached prepared statements.
extension SQLiteVesperStorage {
    /// Throws ``StorageError/revokedLogin`` unless the account exists with the login's
    /// credential version.
    private func checkLogin(_ account: SyncAccount) throws {
        let version = try connection.fetchValue(
            "SELECT credentialVersion FROM accounts WHERE id = ?", [.integer(account.id)])
        guard version?.int64Value == account.credentialVersion else { throw StorageError.revokedLogin }
    }

    // MARK: Tags

    func syncTags(_ uploaded: [SyncTag], account: SyncAccount) throws -> [SyncTag] {
        let userID = account.id
        return try connection.transaction {
            try checkLogin(account)
            let stored = try connection.fetchRows(
                "SELECT uniqueID, name, nameModificationDate FROM tags WHERE userID = ? ORDER BY uniqueID",
                [.integer(userID)]
            ).map { row in
                guard let uniqueID = row[0].stringValue, let name = row[1].stringValue, let date = row[2].int64Value
                else { throw StorageError.corruptRow(table: "tags", reason: "a required column is NULL") }
                return SyncTag(uniqueID: uniqueID, name: name, nameModificationDate: date)
            }
            let outcome = TagMerge.merge(uploaded: uploaded, stored: stored)
            for tag in outcome.writes {
                // An upsert, so two devices' concurrent first uploads cannot create duplicates.
                try connection.execute(
                    """
                    INSERT INTO tags (userID, uniqueID, name, nameModificationDate) VALUES (?, ?, ?, ?)
                    ON CONFLICT (userID, uniqueID) DO UPDATE SET name = excluded.name,
                        nameModificationDate = excluded.nameModificationDate
                    WHERE excluded.nameModificationDate > tags.nameModificationDate
                    """, [.integer(userID), .text(tag.uniqueID), .text(tag.name), .integer(tag.nameModificationDate)])
            }
            return outcome.response
        }
    }

    // MARK: Deleted notes

    func syncDeletedNotes(_ uploaded: [Int64], since: Int64?, account: SyncAccount) throws -> SyncResult<Int64> {
        let userID = account.id
        return try connection.transaction {
            try checkLogin(account)
            // 1. The call's date: the token to return, and the date of the tombstones it writes.
            let now = nextDate()
            let sinceDate = min(since ?? 0, now)
            // 2. Tombstones that existed before this call and are newer than the token.
            let existing = try connection.fetchRows(
                """
                SELECT noteID FROM deletedNotes WHERE userID = ? AND serverModificationDate > ?
                ORDER BY serverModificationDate, noteID
                """, [.integer(userID), .integer(sinceDate)]
            ).compactMap { $0[0].int64Value }
            // 3. Record each new tombstone once (unique per user) and delete its note, in the
            //    same transaction.
            for noteID in uploaded {
                try connection.execute(
                    "INSERT OR IGNORE INTO deletedNotes (userID, noteID, serverModificationDate) VALUES (?, ?, ?)",
                    [.integer(userID), .integer(noteID), .integer(now)])
                try connection.execute(
                    "DELETE FROM notes WHERE userID = ? AND noteID = ?", [.integer(userID), .integer(noteID)])
            }
            return SyncResult(items: existing, date: now)
        }
    }

    // MARK: Notes

    func syncNotes(_ uploaded: [SyncNote], since: Int64?, overlap: Int64, account: SyncAccount) throws
        -> SyncResult<SyncNote>
    {
        let userID = account.id
        return try connection.transaction {
            try checkLogin(account)
            // 1. The call's date: the token to return and the serverModificationDate of its writes.
            let now = nextDate()
            // 2. Which uploaded IDs are tombstoned, and their stored rows: one query each.
            var tombstoned: Set<Int64> = []
            var stored: [Int64: SyncNote] = [:]
            if !uploaded.isEmpty {
                let ids: [SQLValue] = [.integer(userID), .text(Self.jsonArray(uploaded.map(\.noteID)))]
                for row in try connection.fetchRows(
                    "SELECT noteID FROM deletedNotes WHERE userID = ? AND noteID IN (SELECT value FROM json_each(?))", ids)
                {
                    if let noteID = row[0].int64Value { tombstoned.insert(noteID) }
                }
                for row in try connection.fetchRows(
                    "SELECT \(Self.noteColumns) FROM notes WHERE userID = ? AND noteID IN (SELECT value FROM json_each(?))",
                    ids)
                {
                    let note = try note(from: row, userID: userID)
                    stored[note.noteID] = note
                }
            }
            // 3. One note per ID; tombstoned notes skipped; new notes inserted, existing ones merged.
            let writes = NoteMerge.writes(for: uploaded, tombstoned: tombstoned, stored: stored)
            for write in writes {
                try writeNote(write.note, userID: userID, serverModificationDate: now, isNew: write.isNew)
            }
            // 4. Everything changed since the token date minus the overlap, tombstones excluded.
            let sinceDate = since.map { min($0, now) - overlap } ?? Int64.min
            let rows = try connection.fetchRows(
                """
                SELECT \(Self.noteColumns) FROM notes
                WHERE userID = ? AND serverModificationDate > ?
                    AND NOT EXISTS (SELECT 1 FROM deletedNotes d WHERE d.userID = notes.userID AND d.noteID = notes.noteID)
                ORDER BY serverModificationDate, noteID
                """, [.integer(userID), .integer(sinceDate)])
            return SyncResult(items: try rows.map { try note(from: $0, userID: userID) }, date: now)
        }
    }

    // MARK: Note rows

    private static let noteColumns = """
        noteID, archived, text, textKeyID, creationDate, sortDate, textModificationDate, archivedModificationDate, \
        sortDateModificationDate, tagsModificationDate, attachmentsModificationDate, tags, attachments
        """

    /// `[1,2,3]`: note IDs as one parameter for `json_each`.
    private static func jsonArray(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// A row as a note with its text opened by the key the row names. A text that cannot be
    /// opened is an error, never `nil`: writing nil back would lose the text.
    private func note(from row: [SQLValue], userID: Int64) throws -> SyncNote {
        guard let noteID = row[0].int64Value, let creationDate = row[4].int64Value, let sortDate = row[5].int64Value
        else { throw StorageError.corruptRow(table: "notes", reason: "a required column is NULL") }
        let properties = SyncNote(
            noteID: noteID, archived: row[1].int64Value.map { $0 != 0 }, creationDate: creationDate, sortDate: sortDate,
            textModificationDate: row[6].int64Value, archivedModificationDate: row[7].int64Value,
            sortDateModificationDate: row[8].int64Value, tagsModificationDate: row[9].int64Value,
            attachmentsModificationDate: row[10].int64Value, tags: row[11].stringValue, attachments: row[12].dataValue)
        return try NoteRecord(properties: properties, sealed: row[2].dataValue, textKeyID: row[3].int64Value)
            .opened(cipher: cipher, userID: userID)
    }

    /// Inserts or rewrites a whole row, its text sealed afresh with the current key.
    private func writeNote(_ syncNote: SyncNote, userID: Int64, serverModificationDate: Int64, isNew: Bool) throws {
        let record = try NoteRecord(sealing: syncNote, cipher: cipher, userID: userID)
        let note = record.properties
        let values: [SQLValue] = [
            .optional(note.archived), .optional(record.sealedText?.combined), .optional(record.sealedText?.keyID),
            .integer(note.sortDate), .optional(note.textModificationDate), .optional(note.archivedModificationDate),
            .optional(note.sortDateModificationDate), .optional(note.tagsModificationDate),
            .optional(note.attachmentsModificationDate), .integer(serverModificationDate), .optional(note.tags),
            .optional(note.attachments),
        ]
        if isNew {
            try connection.execute(
                """
                INSERT INTO notes (archived, text, textKeyID, sortDate, textModificationDate, archivedModificationDate,
                    sortDateModificationDate, tagsModificationDate, attachmentsModificationDate, serverModificationDate,
                    tags, attachments, creationDate, userID, noteID)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, values + [.integer(note.creationDate), .integer(userID), .integer(note.noteID)])
        } else {
            try connection.execute(
                """
                UPDATE notes SET archived = ?, text = ?, textKeyID = ?, sortDate = ?, textModificationDate = ?,
                    archivedModificationDate = ?, sortDateModificationDate = ?, tagsModificationDate = ?,
                    attachmentsModificationDate = ?, serverModificationDate = ?, tags = ?, attachments = ?
                WHERE userID = ? AND noteID = ?
                """, values + [.integer(userID), .integer(note.noteID)])
        }
    }
}
