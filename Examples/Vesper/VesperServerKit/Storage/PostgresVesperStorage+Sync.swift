import Foundation
import PostgresNIO

/// Tags, tombstones and notes on PostgreSQL: each call is one transaction that starts by locking
/// the user's account row (``PostgresVesperStorage/beginUserCall(_:userID:)``); uploads are read
/// and written in batches, with ID arrays instead of `IN` lists.
extension PostgresVesperStorage {
    // MARK: Tags

    func syncTags(_ uploaded: [SyncTag], userID: Int64) async throws -> [SyncTag] {
        try await transaction { connection in
            _ = try await beginUserCall(connection, userID: userID)
            var stored: [SyncTag] = []
            let rows = try await connection.query(
                "SELECT uniqueID, name, nameModificationDate FROM tags WHERE userID = \(userID) ORDER BY uniqueID",
                logger: logger)
            for try await (uniqueID, name, date) in rows.decode((String, String, Int64).self) {
                stored.append(SyncTag(uniqueID: uniqueID, name: name, nameModificationDate: date))
            }
            let outcome = TagMerge.merge(uploaded: uploaded, stored: stored)
            for tag in outcome.writes {
                try await connection.query(
                    """
                    INSERT INTO tags (userID, uniqueID, name, nameModificationDate)
                    VALUES (\(userID), \(tag.uniqueID), \(tag.name), \(tag.nameModificationDate))
                    ON CONFLICT (userID, uniqueID) DO UPDATE SET name = excluded.name,
                        nameModificationDate = excluded.nameModificationDate
                    WHERE excluded.nameModificationDate > tags.nameModificationDate
                    """, logger: logger)
            }
            return outcome.response
        }
    }

    // MARK: Deleted notes

    func syncDeletedNotes(_ uploaded: [Int64], since: Int64?, userID: Int64) async throws -> SyncResult<Int64> {
        try await transaction { connection in
            let now = try await beginUserCall(connection, userID: userID)
            let sinceDate = min(since ?? 0, now)
            var existing: [Int64] = []
            let rows = try await connection.query(
                """
                SELECT noteID FROM deletedNotes WHERE userID = \(userID) AND serverModificationDate > \(sinceDate)
                ORDER BY serverModificationDate, noteID
                """, logger: logger)
            for try await noteID in rows.decode(Int64.self) { existing.append(noteID) }
            if !uploaded.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO deletedNotes (userID, noteID, serverModificationDate)
                    SELECT \(userID), unnest(\(uploaded)::bigint[]), \(now) ON CONFLICT DO NOTHING
                    """, logger: logger)
                try await connection.query(
                    "DELETE FROM notes WHERE userID = \(userID) AND noteID = ANY(\(uploaded))", logger: logger)
            }
            return SyncResult(items: existing, date: now)
        }
    }

    // MARK: Notes

    func syncNotes(_ uploaded: [SyncNote], since: Int64?, overlap: Int64, userID: Int64) async throws
        -> SyncResult<SyncNote>
    {
        try await transaction { connection in
            // 1. Lock the user and take the call's date.
            let now = try await beginUserCall(connection, userID: userID)
            // 2. Tombstones and stored rows for the uploaded IDs, the rows locked until commit.
            let ids = Array(Set(uploaded.map(\.noteID)))
            var tombstoned: Set<Int64> = []
            var stored: [Int64: SyncNote] = [:]
            if !ids.isEmpty {
                let deleted = try await connection.query(
                    "SELECT noteID FROM deletedNotes WHERE userID = \(userID) AND noteID = ANY(\(ids))", logger: logger)
                for try await noteID in deleted.decode(Int64.self) { tombstoned.insert(noteID) }
                let rows = try await connection.query(
                    """
                    SELECT \(unescaped: Self.noteColumns) FROM notes
                    WHERE userID = \(userID) AND noteID = ANY(\(ids)) FOR UPDATE
                    """, logger: logger)
                for note in try await notes(rows, userID: userID) { stored[note.noteID] = note }
            }
            // 3. The engine-independent merge, then the writes in batches.
            let writes = try NoteMerge.writes(
                for: uploaded, isTombstoned: { tombstoned.contains($0) }, existing: { stored[$0] })
            let records = try writes.map { try NoteRecord(sealing: $0.note, cipher: cipher, userID: userID) }
            for start in stride(from: 0, to: records.count, by: Self.rowsPerInsert) {
                let batch = records[start..<min(start + Self.rowsPerInsert, records.count)]
                try await connection.query(try Self.upsert(batch, userID: userID, date: now), logger: logger)
            }
            // 4. Everything changed since the token date minus the overlap, tombstones excluded.
            let sinceDate = since.map { min($0, now) - overlap } ?? Int64.min
            let changed = try await connection.query(
                """
                SELECT \(unescaped: Self.noteColumns) FROM notes
                WHERE userID = \(userID) AND serverModificationDate > \(sinceDate)
                    AND NOT EXISTS (SELECT 1 FROM deletedNotes d WHERE d.userID = notes.userID AND d.noteID = notes.noteID)
                ORDER BY serverModificationDate, noteID
                """, logger: logger)
            return SyncResult(items: try await notes(changed, userID: userID), date: now)
        }
    }

    // MARK: Note rows

    private static let noteColumns = """
        noteID, archived, text, textKeyID, creationDate, sortDate, textModificationDate, archivedModificationDate, \
        sortDateModificationDate, tagsModificationDate, attachmentsModificationDate, tags, attachments
        """

    /// 15 parameters a row; PostgreSQL takes at most 65,535 a statement.
    private static let rowsPerInsert = 1_000

    private func notes(_ rows: PostgresRowSequence, userID: Int64) async throws -> [SyncNote] {
        var notes: [SyncNote] = []
        for try await row in rows {
            let (noteID, archived, text, keyID, creation, sort, textDate, archivedDate, sortDate, tagsDate, attachmentsDate,
                tags, attachments) = try row.decode(
                    (Int64, Bool?, ByteBuffer?, Int64?, Int64, Int64, Int64?, Int64?, Int64?, Int64?, Int64?, String?,
                        ByteBuffer?).self)
            let properties = SyncNote(
                noteID: noteID, archived: archived, creationDate: creation, sortDate: sort,
                textModificationDate: textDate, archivedModificationDate: archivedDate,
                sortDateModificationDate: sortDate, tagsModificationDate: tagsDate,
                attachmentsModificationDate: attachmentsDate, tags: tags,
                attachments: attachments.map { Data($0.readableBytesView) })
            notes.append(
                try NoteRecord(properties: properties, sealed: text.map { Data($0.readableBytesView) }, textKeyID: keyID)
                    .opened(cipher: cipher, userID: userID))
        }
        return notes
    }

    /// One `INSERT … ON CONFLICT DO UPDATE` for a batch of whole rows (merged in Swift under the
    /// row locks); `creationDate` never changes once stored.
    private static func upsert(_ records: ArraySlice<NoteRecord>, userID: Int64, date: Int64) throws -> PostgresQuery {
        var bindings = PostgresBindings(capacity: records.count * 15)
        var tuples: [String] = []
        tuples.reserveCapacity(records.count)
        for record in records {
            let note = record.properties
            let first = bindings.count + 1
            tuples.append("(" + (first..<first + 15).map { "$\($0)" }.joined(separator: ",") + ")")
            bindings.append(userID)
            bindings.append(note.noteID)
            bindings.append(note.archived)
            try bindings.append(record.sealedText?.combined)
            bindings.append(record.sealedText?.keyID)
            bindings.append(note.creationDate)
            bindings.append(note.sortDate)
            bindings.append(note.textModificationDate)
            bindings.append(note.archivedModificationDate)
            bindings.append(note.sortDateModificationDate)
            bindings.append(note.tagsModificationDate)
            bindings.append(note.attachmentsModificationDate)
            bindings.append(date)
            bindings.append(note.tags)
            try bindings.append(note.attachments)
        }
        let sql = """
            INSERT INTO notes (userID, noteID, archived, text, textKeyID, creationDate, sortDate, textModificationDate,
                archivedModificationDate, sortDateModificationDate, tagsModificationDate, attachmentsModificationDate,
                serverModificationDate, tags, attachments)
            VALUES \(tuples.joined(separator: ","))
            ON CONFLICT (userID, noteID) DO UPDATE SET archived = excluded.archived, text = excluded.text,
                textKeyID = excluded.textKeyID, sortDate = excluded.sortDate,
                textModificationDate = excluded.textModificationDate,
                archivedModificationDate = excluded.archivedModificationDate,
                sortDateModificationDate = excluded.sortDateModificationDate,
                tagsModificationDate = excluded.tagsModificationDate,
                attachmentsModificationDate = excluded.attachmentsModificationDate,
                serverModificationDate = excluded.serverModificationDate, tags = excluded.tags,
                attachments = excluded.attachments
            """
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
