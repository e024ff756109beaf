import Foundation
import GRDB

/// The GRDB implementations, with its record API; one `DatabaseQueue` with QSData's pragmas.
enum GRDBBench {
    /// QSData's pragmas on every connection GRDB opens; `DatabasePool` switches the file to WAL
    /// itself, so for a pool `settingWAL` is false.
    static func configuration(settingWAL: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if settingWAL { try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        return configuration
    }

    static func open(_ path: String) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(settingWAL: true))
        // Read the schema now, as QSData does when it opens.
        _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        return dbQueue
    }

    /// GRDB's synchronous read and write, called from the main thread like the raw
    /// implementation (in an async context Swift would pick GRDB's async variants).
    static func read<Value>(_ dbQueue: DatabaseQueue, _ body: (Database) throws -> Value) throws -> Value {
        try dbQueue.read(body)
    }

    static func write<Value>(_ dbQueue: DatabaseQueue, _ body: (Database) throws -> Value) throws -> Value {
        try dbQueue.write(body)
    }

    // MARK: Fetching the timeline notes into structs

    static func fetchTimelineRecords(_ dbQueue: DatabaseQueue) throws -> [GRDBTimelineNote] {
        try dbQueue.read { db in
            try GRDBTimelineNote
                .select(Column("uniqueID"), Column("truncatedText"), Column("links"), Column("sortDate"), Column("thumbnailID"), Column("archived"))
                .fetchAll(db)
        }
    }

    static func fetchTimelineByIndex(_ dbQueue: DatabaseQueue) throws -> [GRDBIndexedTimelineNote] {
        try dbQueue.read { db in
            try GRDBIndexedTimelineNote.fetchAll(db, sql: RawNotes.timelineSQL)
        }
    }

    // MARK: Fetching notes with their ordered tags and attachments

    /// The same five queries as the other implementations, each through the record API,
    /// then the same assembly.
    static func fetchNotes(_ db: Database, archived: Bool) throws -> [GRDBNote] {
        do {
            let parents = GRDBNote.select(Column("uniqueID")).filter(Column("archived") == archived)
            let tagLookups = try GRDBTagLookup
                .filter(parents.contains(Column("noteID")))
                .order(Column("noteID"), Column("ix"))
                .fetchAll(db)
            let tags = try GRDBTag.fetchAll(db, keys: Array(Set(tagLookups.map(\.tagID))))
            let attachmentLookups = try GRDBAttachmentLookup
                .filter(parents.contains(Column("noteID")))
                .order(Column("noteID"), Column("ix"))
                .fetchAll(db)
            let attachments = try GRDBAttachment.fetchAll(db, keys: attachmentLookups.map(\.attachmentID))
            let tagsByID = Dictionary(tags.map { ($0.uniqueID, $0) }, uniquingKeysWith: { first, _ in first })
            let attachmentsByID = Dictionary(attachments.map { ($0.uniqueID, $0) }, uniquingKeysWith: { first, _ in first })
            var tagsByNote: [Int64: [GRDBTag]] = [:]
            for lookup in tagLookups {
                if let tag = tagsByID[lookup.tagID] { tagsByNote[lookup.noteID, default: []].append(tag) }
            }
            var attachmentsByNote: [Int64: [GRDBAttachment]] = [:]
            for lookup in attachmentLookups {
                if let attachment = attachmentsByID[lookup.attachmentID] { attachmentsByNote[lookup.noteID, default: []].append(attachment) }
            }
            let notes = try GRDBNote.filter(Column("archived") == archived).fetchAll(db)
            for note in notes {
                note.tags = tagsByNote[note.uniqueID] ?? []
                note.attachments = attachmentsByNote[note.uniqueID] ?? []
            }
            return notes
        }
    }

    // MARK: Saving new notes with tags and an attachment

    static func save(_ notes: [GRDBNote], in dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in
            var savedTags: Set<String> = []
            for note in notes {
                for (index, tag) in note.tags.enumerated() {
                    if savedTags.insert(tag.uniqueID).inserted {
                        try tag.insert(db, onConflict: .ignore)
                    }
                    try GRDBTagLookup(noteID: note.uniqueID, tagID: tag.uniqueID, ix: Int64(index)).insert(db)
                }
                for (index, attachment) in note.attachments.enumerated() {
                    try attachment.insert(db, onConflict: .ignore)
                    try GRDBAttachmentLookup(noteID: note.uniqueID, attachmentID: attachment.uniqueID, ix: Int64(index)).insert(db)
                }
                try note.insert(db)
            }
        }
    }

    // MARK: Marking articles read

    static func markRead(ids: [Int64], in db: Database) throws {
        _ = try GRDBArticle.filter(keys: ids).updateAll(db, Column("read").set(to: true))
    }

    // MARK: Deleting notes with their lookup rows

    static func delete(ids: [Int64], in db: Database) throws {
        try GRDBNote.deleteAll(db, keys: ids)
        try GRDBTagLookup.filter(ids.contains(Column("noteID"))).deleteAll(db)
        try GRDBAttachmentLookup.filter(ids.contains(Column("noteID"))).deleteAll(db)
    }

    // MARK: Fetch by ID

    static func fetch(ids: [Int64], in dbQueue: DatabaseQueue) throws -> Int {
        try dbQueue.read { db in
            var found = 0
            for id in ids where try GRDBArticle.fetchOne(db, key: id) != nil {
                found += 1
            }
            return found
        }
    }

    /// The statements `body` runs on `db`, counted with GRDB's statement tracing
    /// (transaction control not counted, as in QSData's log).
    static func countingStatements(_ db: Database, _ body: () throws -> Void) throws -> Int {
        let counter = StatementCounter()
        db.trace(options: .statement) { event in
            if case .statement(let statement) = event {
                let head = statement.sql.prefix(8).uppercased()
                if !["BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK"].contains(where: { head.hasPrefix($0) }) {
                    counter.count += 1
                }
            }
        }
        defer { db.trace(options: .statement, nil) }
        try body()
        return counter.count
    }
}

private final class StatementCounter: @unchecked Sendable {
    var count = 0
}
