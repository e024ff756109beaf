import CSQLiteBench
import Foundation

/// The raw sqlite3 implementations, written as an expert would: prepared statements, one
/// transaction per write, columns read by index, one reused property-list coder.
enum RawNotes {
    static let timelineSQL = "SELECT uniqueID, truncatedText, links, sortDate, thumbnailID, archived FROM notes"
    static let noteColumns = "uniqueID, truncatedText, links, sortDate, thumbnailID, archived, text, creationDate, textModificationDate, sortDateModificationDate, archivedModificationDate, tagsModificationDate, attachmentsModificationDate, modificationDate"

    // MARK: Fetching the timeline notes into structs

    static func fetchTimeline(_ db: RawDatabase) throws -> [RawTimelineNote] {
        let statement = try db.prepare(timelineSQL)
        defer { sqlite3_finalize(statement) }
        let decoder = PropertyListDecoder()
        var notes: [RawTimelineNote] = []
        while try db.stepRow(statement) {
            notes.append(RawTimelineNote(
                uniqueID: sqlite3_column_int64(statement, 0),
                truncatedText: rawText(statement, 1),
                links: try rawBlob(statement, 2).map { try decoder.decode([String].self, from: $0) },
                sortDate: Date(timeIntervalSince1970: sqlite3_column_double(statement, 3)),
                thumbnailID: rawText(statement, 4),
                archived: sqlite3_column_int64(statement, 5) != 0))
        }
        return notes
    }

    // MARK: Fetching notes with their ordered tags and attachments

    /// The notes `condition` selects with their ordered tags and attachments, in five queries:
    /// notes; tag lookup rows; the tags they name; attachment lookup rows; the attachments.
    static func fetchNotes(_ db: RawDatabase, where condition: String) throws -> (notes: [RawNote], statements: Int) {
        let parents = "SELECT uniqueID FROM notes WHERE \(condition)"
        // 1. Tag lookup rows, in order, then each distinct tag once.
        let tagPairs = try pairs(db, "SELECT noteID, tagID FROM tagsNotesLookup WHERE noteID IN (\(parents)) ORDER BY noteID, ix")
        var tagsByID: [String: RawTag] = [:]
        let tagStatement = try db.prepare("SELECT uniqueID, name, nameModificationDate FROM tags WHERE uniqueID IN (SELECT value FROM json_each(?1))")
        defer { sqlite3_finalize(tagStatement) }
        rawBind(tagStatement, 1, jsonArray(distinct(tagPairs.map(\.child))))
        while try db.stepRow(tagStatement) {
            let tag = RawTag(uniqueID: rawText(tagStatement, 0) ?? "", name: rawText(tagStatement, 1) ?? "",
                             nameModificationDate: rawOptionalDate(tagStatement, 2))
            tagsByID[tag.uniqueID] = tag
        }
        // 2. Attachment lookup rows, then the attachments.
        let attachmentPairs = try pairs(db, "SELECT noteID, attachmentID FROM attachmentsNotesLookup WHERE noteID IN (\(parents)) ORDER BY noteID, ix")
        var attachmentsByID: [String: RawAttachment] = [:]
        let attachmentStatement = try db.prepare("SELECT uniqueID, mimeType, height, width FROM attachments WHERE uniqueID IN (SELECT value FROM json_each(?1))")
        defer { sqlite3_finalize(attachmentStatement) }
        rawBind(attachmentStatement, 1, jsonArray(distinct(attachmentPairs.map(\.child))))
        while try db.stepRow(attachmentStatement) {
            let attachment = RawAttachment(
                uniqueID: rawText(attachmentStatement, 0) ?? "", mimeType: rawText(attachmentStatement, 1) ?? "",
                height: sqlite3_column_int64(attachmentStatement, 2), width: sqlite3_column_int64(attachmentStatement, 3))
            attachmentsByID[attachment.uniqueID] = attachment
        }
        var tagsByNote: [Int64: [RawTag]] = [:]
        for pair in tagPairs {
            if let tag = tagsByID[pair.child] { tagsByNote[pair.parent, default: []].append(tag) }
        }
        var attachmentsByNote: [Int64: [RawAttachment]] = [:]
        for pair in attachmentPairs {
            if let attachment = attachmentsByID[pair.child] { attachmentsByNote[pair.parent, default: []].append(attachment) }
        }
        // 3. The notes.
        let statement = try db.prepare("SELECT \(noteColumns) FROM notes WHERE \(condition)")
        defer { sqlite3_finalize(statement) }
        let decoder = PropertyListDecoder()
        var notes: [RawNote] = []
        while try db.stepRow(statement) {
            let note = try readNote(statement, decoder: decoder)
            note.tags = tagsByNote[note.uniqueID] ?? []
            note.attachments = attachmentsByNote[note.uniqueID] ?? []
            notes.append(note)
        }
        return (notes, 5)
    }

    static func readNote(_ statement: OpaquePointer, decoder: PropertyListDecoder) throws -> RawNote {
        RawNote(
            uniqueID: sqlite3_column_int64(statement, 0),
            truncatedText: rawText(statement, 1),
            links: try rawBlob(statement, 2).map { try decoder.decode([String].self, from: $0) },
            sortDate: Date(timeIntervalSince1970: sqlite3_column_double(statement, 3)),
            thumbnailID: rawText(statement, 4),
            archived: sqlite3_column_int64(statement, 5) != 0,
            text: rawText(statement, 6),
            creationDate: Date(timeIntervalSince1970: sqlite3_column_double(statement, 7)),
            textModificationDate: rawOptionalDate(statement, 8),
            sortDateModificationDate: rawOptionalDate(statement, 9),
            archivedModificationDate: rawOptionalDate(statement, 10),
            tagsModificationDate: rawOptionalDate(statement, 11),
            attachmentsModificationDate: rawOptionalDate(statement, 12),
            modificationDate: rawOptionalDate(statement, 13))
    }

    private static func pairs(_ db: RawDatabase, _ sql: String) throws -> [(parent: Int64, child: String)] {
        let statement = try db.prepare(sql)
        defer { sqlite3_finalize(statement) }
        var pairs: [(parent: Int64, child: String)] = []
        while try db.stepRow(statement) {
            pairs.append((sqlite3_column_int64(statement, 0), rawText(statement, 1) ?? ""))
        }
        return pairs
    }

    private static func distinct(_ ids: [String]) -> [String] {
        var seen: Set<String> = []
        return ids.filter { seen.insert($0).inserted }
    }

    // MARK: Saving new notes with tags and an attachment

    /// Inserts new notes with their tags, attachments and lookup rows in one transaction.
    static func save(_ notes: [RawNote], in db: RawDatabase) throws {
        try db.execute("BEGIN IMMEDIATE")
        do {
            try insert(notes, in: db)
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    private static func insert(_ notes: [RawNote], in db: RawDatabase) throws {
        let noteStatement = try db.prepare("INSERT INTO notes (\(noteColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)")
        let tagStatement = try db.prepare("INSERT OR IGNORE INTO tags (uniqueID, name, nameModificationDate) VALUES (?1, ?2, ?3)")
        let attachmentStatement = try db.prepare("INSERT OR IGNORE INTO attachments (uniqueID, mimeType, height, width) VALUES (?1, ?2, ?3, ?4)")
        let tagLookup = try db.prepare("INSERT INTO tagsNotesLookup (noteID, tagID, ix) VALUES (?1, ?2, ?3)")
        let attachmentLookup = try db.prepare("INSERT INTO attachmentsNotesLookup (noteID, attachmentID, ix) VALUES (?1, ?2, ?3)")
        defer {
            for statement in [noteStatement, tagStatement, attachmentStatement, tagLookup, attachmentLookup] {
                sqlite3_finalize(statement)
            }
        }
        let encoder = LinksCoding.makeEncoder()
        var savedTags: Set<String> = []
        for note in notes {
            for (index, tag) in note.tags.enumerated() {
                if savedTags.insert(tag.uniqueID).inserted {
                    rawBind(tagStatement, 1, tag.uniqueID)
                    rawBind(tagStatement, 2, tag.name)
                    rawBind(tagStatement, 3, tag.nameModificationDate)
                    try db.stepDone(tagStatement)
                    sqlite3_reset(tagStatement)
                }
                sqlite3_bind_int64(tagLookup, 1, note.uniqueID)
                rawBind(tagLookup, 2, tag.uniqueID)
                sqlite3_bind_int64(tagLookup, 3, Int64(index))
                try db.stepDone(tagLookup)
                sqlite3_reset(tagLookup)
            }
            for (index, attachment) in note.attachments.enumerated() {
                rawBind(attachmentStatement, 1, attachment.uniqueID)
                rawBind(attachmentStatement, 2, attachment.mimeType)
                sqlite3_bind_int64(attachmentStatement, 3, attachment.height)
                sqlite3_bind_int64(attachmentStatement, 4, attachment.width)
                try db.stepDone(attachmentStatement)
                sqlite3_reset(attachmentStatement)
                sqlite3_bind_int64(attachmentLookup, 1, note.uniqueID)
                rawBind(attachmentLookup, 2, attachment.uniqueID)
                sqlite3_bind_int64(attachmentLookup, 3, Int64(index))
                try db.stepDone(attachmentLookup)
                sqlite3_reset(attachmentLookup)
            }
            sqlite3_bind_int64(noteStatement, 1, note.uniqueID)
            rawBind(noteStatement, 2, note.truncatedText)
            rawBind(noteStatement, 3, try note.links.map { try LinksCoding.encode($0, with: encoder) })
            rawBind(noteStatement, 4, note.sortDate)
            rawBind(noteStatement, 5, note.thumbnailID)
            sqlite3_bind_int64(noteStatement, 6, note.archived ? 1 : 0)
            rawBind(noteStatement, 7, note.text)
            rawBind(noteStatement, 8, note.creationDate)
            rawBind(noteStatement, 9, note.textModificationDate)
            rawBind(noteStatement, 10, note.sortDateModificationDate)
            rawBind(noteStatement, 11, note.archivedModificationDate)
            rawBind(noteStatement, 12, note.tagsModificationDate)
            rawBind(noteStatement, 13, note.attachmentsModificationDate)
            rawBind(noteStatement, 14, note.modificationDate)
            try db.stepDone(noteStatement)
            sqlite3_reset(noteStatement)
        }
    }

    // MARK: Deleting notes with their lookup rows

    /// Deletes notes and their lookup rows: three statements, one transaction.
    static func delete(ids: [Int64], in db: RawDatabase) throws {
        let json = jsonArray(ids)
        try db.execute("BEGIN IMMEDIATE")
        do {
            for sql in [
                "DELETE FROM notes WHERE uniqueID IN (SELECT value FROM json_each(?1))",
                "DELETE FROM tagsNotesLookup WHERE noteID IN (SELECT value FROM json_each(?1))",
                "DELETE FROM attachmentsNotesLookup WHERE noteID IN (SELECT value FROM json_each(?1))",
            ] {
                let statement = try db.prepare(sql)
                defer { sqlite3_finalize(statement) }
                rawBind(statement, 1, json)
                try db.stepDone(statement)
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}

/// Raw sqlite3 for articles: bulk insert (database setup), the bare UPDATE that marks articles read, fetch by ID.
enum RawArticles {
    static let columns = "uniqueID, feedID, title, url, datePublished, read, starred"

    static func insert(_ articles: [ArticleValues], in db: RawDatabase) throws {
        try db.execute("BEGIN IMMEDIATE")
        let statement = try db.prepare("INSERT INTO articles (\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        defer { sqlite3_finalize(statement) }
        for article in articles {
            sqlite3_bind_int64(statement, 1, article.uniqueID)
            rawBind(statement, 2, article.feedID)
            rawBind(statement, 3, article.title)
            rawBind(statement, 4, article.url)
            rawBind(statement, 5, article.datePublished)
            sqlite3_bind_int64(statement, 6, article.read ? 1 : 0)
            sqlite3_bind_int64(statement, 7, article.starred ? 1 : 0)
            try db.stepDone(statement)
            sqlite3_reset(statement)
        }
        try db.execute("COMMIT")
    }

    /// Marking articles read: the bare UPDATE, one statement in one transaction.
    static func markRead(ids: [Int64], in db: RawDatabase) throws {
        let json = jsonArray(ids)
        try db.execute("BEGIN IMMEDIATE")
        let statement = try db.prepare("UPDATE articles SET read = 1 WHERE uniqueID IN (SELECT value FROM json_each(?1))")
        defer { sqlite3_finalize(statement) }
        rawBind(statement, 1, json)
        try db.stepDone(statement)
        try db.execute("COMMIT")
    }

    /// Fetch by ID with one prepared statement, reset and rebound per lookup.
    static func fetch(ids: [Int64], in db: RawDatabase) throws -> Int {
        let statement = try db.prepare("SELECT \(columns) FROM articles WHERE uniqueID = ?1")
        defer { sqlite3_finalize(statement) }
        var found = 0
        for id in ids {
            sqlite3_bind_int64(statement, 1, id)
            if try db.stepRow(statement) {
                let article = RawArticle(
                    uniqueID: sqlite3_column_int64(statement, 0), feedID: rawText(statement, 1) ?? "",
                    title: rawText(statement, 2) ?? "", url: rawText(statement, 3) ?? "",
                    datePublished: Date(timeIntervalSince1970: sqlite3_column_double(statement, 4)),
                    read: sqlite3_column_int64(statement, 5) != 0, starred: sqlite3_column_int64(statement, 6) != 0)
                if article.uniqueID == id { found += 1 }
            }
            sqlite3_reset(statement)
        }
        return found
    }
}
