import Foundation
import PostgresNIO

/// Tags, tombstones and notes on PostgreSQL: each call is one transaction that starts by
/// checking the login and locking the user's account row
/// (``PostgresVesperStorage/beginUserCall(_:account:)``); uploads are read and written in
/// batches, with ID arrays instead of `IN` lists. A notes sync is at most five round trips
/// whatever its size up to 1,000 notes: begin, the account, the stored rows with their
/// tombstones, the writes with the changed rows, commit.
extension PostgresVesperStorage {
    // MARK: Tags

    func syncTags(_ uploaded: [SyncTag], account: SyncAccount) async throws -> [SyncTag] {
        let userID = account.id
        return try await transaction { connection in
            _ = try await beginUserCall(connection, account: account)
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

    func syncDeletedNotes(_ uploaded: [Int64], since: Int64?, account: SyncAccount) async throws -> SyncResult<Int64> {
        let userID = account.id
        return try await transaction { connection in
            let now = try await beginUserCall(connection, account: account)
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

    func syncNotes(_ uploaded: [SyncNote], since: Int64?, overlap: Int64, account: SyncAccount) async throws
        -> SyncResult<SyncNote>
    {
        let userID = account.id
        return try await transaction { connection in
            // 1. Check the login, lock the user and take the call's date.
            let now = try await beginUserCall(connection, account: account)
            // 2. Stored rows for the uploaded IDs, locked until commit, and which IDs are tombstoned.
            var tombstoned: Set<Int64> = []
            var stored: [Int64: SyncNote] = [:]
            if !uploaded.isEmpty {
                let rows = try await connection.query(
                    Self.lockedRowsAndTombstones(ids: Array(Set(uploaded.map(\.noteID))), userID: userID), logger: logger)
                for try await row in rows {
                    var cells = NoteCells(row)
                    if try cells.next(Bool.self) {
                        tombstoned.insert(try cells.next(Int64.self))
                    } else {
                        let note = try cells.note(cipher: cipher, userID: userID)
                        stored[note.noteID] = note
                    }
                }
            }
            // 3. The engine-independent merge, then the writes in batches; the last batch's
            //    statement also reads everything changed since the token date minus the overlap,
            //    tombstones excluded (4.).
            let writes = NoteMerge.writes(for: uploaded, tombstoned: tombstoned, stored: stored)
            let records = try writes.map { try NoteRecord(sealing: $0.note, cipher: cipher, userID: userID) }
            let sinceDate = since.map { min($0, now) - overlap } ?? Int64.min
            var start = 0
            while records.count - start > Self.rowsPerInsert {
                let batch = records[start..<start + Self.rowsPerInsert]
                try await connection.query(try Self.upsert(batch, userID: userID, date: now), logger: logger)
                start += Self.rowsPerInsert
            }
            let changes = try Self.changes(
                writing: records[start...], userID: userID, date: now, since: sinceDate)
            var items: [SyncNote] = []
            for try await row in try await connection.query(changes, logger: logger) {
                var cells = NoteCells(row)
                _ = try cells.next(Int64.self)  // serverModificationDate, the sort key
                items.append(try cells.note(cipher: cipher, userID: userID))
            }
            return SyncResult(items: items, date: now)
        }
    }

    // MARK: Statements

    private static let noteColumns = """
        noteID, archived, text, textKeyID, creationDate, sortDate, textModificationDate, archivedModificationDate, \
        sortDateModificationDate, tagsModificationDate, attachmentsModificationDate, tags, attachments
        """

    /// 15 parameters a row; PostgreSQL takes at most 65,535 a statement.
    private static let rowsPerInsert = 1_000

    /// `(false, the note's columns)` for each stored row of `ids`, locked until commit, and
    /// `(true, noteID, …)` for each tombstoned one: one round trip for both questions the merge asks.
    private static func lockedRowsAndTombstones(ids: [Int64], userID: Int64) -> PostgresQuery {
        """
        WITH locked AS (
            SELECT \(unescaped: noteColumns) FROM notes WHERE userID = \(userID) AND noteID = ANY(\(ids)) FOR UPDATE)
        SELECT false, * FROM locked
        UNION ALL
        SELECT true, noteID, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        FROM deletedNotes WHERE userID = \(userID) AND noteID = ANY(\(ids))
        """
    }

    /// Writes `records` (none is fine) and returns `(serverModificationDate, the note's columns)`
    /// of every note changed after `since` and not tombstoned, the written ones as written, in
    /// date order: one statement. (The statement's own reads see the table as it was before
    /// its write, hence the written rows from `RETURNING`.)
    private static func changes(writing records: ArraySlice<NoteRecord>, userID: Int64, date: Int64, since: Int64) throws
        -> PostgresQuery
    {
        var bindings = PostgresBindings(capacity: records.count * 15 + 2)
        let upsert = records.isEmpty ? "" : try upsertSQL(records, userID: userID, date: date, bindings: &bindings)
        bindings.append(userID)
        bindings.append(since)
        let user = "$\(bindings.count - 1)", sinceDate = "$\(bindings.count)"
        let written = records.isEmpty ? "" : """
            WITH written AS (\(upsert) RETURNING serverModificationDate, \(noteColumns))
            SELECT * FROM written WHERE serverModificationDate > \(sinceDate)
            UNION ALL
            """
        let sql = """
            \(written)
            SELECT serverModificationDate, \(noteColumns) FROM notes
            WHERE userID = \(user) AND serverModificationDate > \(sinceDate)
                \(records.isEmpty ? "" : "AND noteID NOT IN (SELECT noteID FROM written)")
                AND NOT EXISTS (SELECT 1 FROM deletedNotes d WHERE d.userID = notes.userID AND d.noteID = notes.noteID)
            ORDER BY 1, 2
            """
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    private static func upsert(_ records: ArraySlice<NoteRecord>, userID: Int64, date: Int64) throws -> PostgresQuery {
        var bindings = PostgresBindings(capacity: records.count * 15)
        let sql = try upsertSQL(records, userID: userID, date: date, bindings: &bindings)
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// One `INSERT … ON CONFLICT DO UPDATE` for a batch of whole rows (merged in Swift under the
    /// row locks), its values appended to `bindings`; `creationDate` never changes once stored.
    private static func upsertSQL(
        _ records: ArraySlice<NoteRecord>, userID: Int64, date: Int64, bindings: inout PostgresBindings
    ) throws -> String {
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
        return """
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
    }
}

/// A result row's cells read in order, the note columns (``PostgresVesperStorage`` `noteColumns`)
/// as a note with its text opened.
private struct NoteCells {
    private var cells: PostgresRow.Iterator

    init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    mutating func next<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
        guard let cell = cells.next() else {
            throw StorageError.corruptRow(table: "notes", reason: "the result has too few columns")
        }
        return try cell.decode(Value.self)
    }

    mutating func note(cipher: TextCipher, userID: Int64) throws -> SyncNote {
        let noteID = try next(Int64.self)
        let archived = try next(Bool?.self)
        let text = try next(ByteBuffer?.self)
        let keyID = try next(Int64?.self)
        let properties = SyncNote(
            noteID: noteID, archived: archived, creationDate: try next(Int64.self), sortDate: try next(Int64.self),
            textModificationDate: try next(Int64?.self), archivedModificationDate: try next(Int64?.self),
            sortDateModificationDate: try next(Int64?.self), tagsModificationDate: try next(Int64?.self),
            attachmentsModificationDate: try next(Int64?.self), tags: try next(String?.self),
            attachments: try next(ByteBuffer?.self).map { Data($0.readableBytesView) })
        return try NoteRecord(properties: properties, sealed: text.map { Data($0.readableBytesView) }, textKeyID: keyID)
            .opened(cipher: cipher, userID: userID)
    }
}
