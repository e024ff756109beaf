import Foundation
import GRDB

// GRDB's idiomatic record types: FetchableRecord + PersistableRecord with hand-written
// `init(row:)` reading columns by name, and `encode(to:)` writing them.

struct GRDBTimelineNote: FetchableRecord, TableRecord {
    static let databaseTableName = "notes"
    let uniqueID: Int64
    let truncatedText: String?
    let links: [String]?
    let sortDate: Date
    let thumbnailID: String?
    let archived: Bool

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        truncatedText = try row.decode(forColumn: "truncatedText")
        links = try row.decode(Data?.self, forColumn: "links").map { try PropertyListDecoder().decode([String].self, from: $0) }
        sortDate = Date(timeIntervalSince1970: try row.decode(forColumn: "sortDate"))
        thumbnailID = try row.decode(forColumn: "thumbnailID")
        archived = try row.decode(forColumn: "archived")
    }
}

/// GRDB's fastest row API for the same struct: columns read by index, in SELECT order.
struct GRDBIndexedTimelineNote: FetchableRecord {
    let uniqueID: Int64
    let truncatedText: String?
    let links: [String]?
    let sortDate: Date
    let thumbnailID: String?
    let archived: Bool

    init(row: Row) throws {
        uniqueID = try row.decode(atIndex: 0)
        truncatedText = try row.decode(atIndex: 1)
        links = try row.decode(Data?.self, atIndex: 2).map { try PropertyListDecoder().decode([String].self, from: $0) }
        sortDate = Date(timeIntervalSince1970: try row.decode(atIndex: 3))
        thumbnailID = try row.decode(atIndex: 4)
        archived = try row.decode(atIndex: 5)
    }
}

/// Dates are REAL seconds since 1970 in this schema (QSData's format), not GRDB's default text.
private func date(_ value: Date?) -> Double? { value?.timeIntervalSince1970 }
private func date(_ value: Double?) -> Date? { value.map(Date.init(timeIntervalSince1970:)) }

final class GRDBNote: FetchableRecord, PersistableRecord {
    static let databaseTableName = "notes"
    let uniqueID: Int64
    var truncatedText: String?
    var links: [String]?
    var sortDate: Date
    var thumbnailID: String?
    var archived: Bool
    var text: String?
    var creationDate: Date
    var textModificationDate: Date?
    var sortDateModificationDate: Date?
    var archivedModificationDate: Date?
    var tagsModificationDate: Date?
    var attachmentsModificationDate: Date?
    var modificationDate: Date?
    var tags: [GRDBTag] = []
    var attachments: [GRDBAttachment] = []

    init(_ values: NoteValues, tags: [GRDBTag]) {
        uniqueID = values.uniqueID
        truncatedText = values.truncatedText
        links = values.links
        sortDate = values.sortDate
        thumbnailID = values.thumbnailID
        archived = values.archived
        text = values.text
        creationDate = values.creationDate
        textModificationDate = values.textModificationDate
        sortDateModificationDate = values.sortDateModificationDate
        archivedModificationDate = values.archivedModificationDate
        tagsModificationDate = values.tagsModificationDate
        attachmentsModificationDate = values.attachmentsModificationDate
        modificationDate = values.modificationDate
        self.tags = values.tagIndexes.map { tags[$0] }
        attachments = [GRDBAttachment(values.attachment)]
    }

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        truncatedText = try row.decode(forColumn: "truncatedText")
        links = try row.decode(Data?.self, forColumn: "links").map { try PropertyListDecoder().decode([String].self, from: $0) }
        sortDate = Date(timeIntervalSince1970: try row.decode(forColumn: "sortDate"))
        thumbnailID = try row.decode(forColumn: "thumbnailID")
        archived = try row.decode(forColumn: "archived")
        text = try row.decode(forColumn: "text")
        creationDate = Date(timeIntervalSince1970: try row.decode(forColumn: "creationDate"))
        textModificationDate = date(try row.decode(Double?.self, forColumn: "textModificationDate"))
        sortDateModificationDate = date(try row.decode(Double?.self, forColumn: "sortDateModificationDate"))
        archivedModificationDate = date(try row.decode(Double?.self, forColumn: "archivedModificationDate"))
        tagsModificationDate = date(try row.decode(Double?.self, forColumn: "tagsModificationDate"))
        attachmentsModificationDate = date(try row.decode(Double?.self, forColumn: "attachmentsModificationDate"))
        modificationDate = date(try row.decode(Double?.self, forColumn: "modificationDate"))
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["uniqueID"] = uniqueID
        container["truncatedText"] = truncatedText
        container["links"] = try links.map { try GRDBNote.linksEncoder.encode($0) }
        container["sortDate"] = sortDate.timeIntervalSince1970
        container["thumbnailID"] = thumbnailID
        container["archived"] = archived
        container["text"] = text
        container["creationDate"] = creationDate.timeIntervalSince1970
        container["textModificationDate"] = date(textModificationDate)
        container["sortDateModificationDate"] = date(sortDateModificationDate)
        container["archivedModificationDate"] = date(archivedModificationDate)
        container["tagsModificationDate"] = date(tagsModificationDate)
        container["attachmentsModificationDate"] = date(attachmentsModificationDate)
        container["modificationDate"] = date(modificationDate)
    }

    /// Encoding the links needs a binary property list encoder, as in the other implementations.
    static let linksEncoder = LinksCoding.makeEncoder()
}

final class GRDBTag: FetchableRecord, PersistableRecord {
    static let databaseTableName = "tags"
    let uniqueID: String
    var name: String
    var nameModificationDate: Date?

    init(_ values: TagValues) {
        uniqueID = values.uniqueID
        name = values.name
        nameModificationDate = values.nameModificationDate
    }

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        name = try row.decode(forColumn: "name")
        nameModificationDate = date(try row.decode(Double?.self, forColumn: "nameModificationDate"))
    }

    func encode(to container: inout PersistenceContainer) {
        container["uniqueID"] = uniqueID
        container["name"] = name
        container["nameModificationDate"] = date(nameModificationDate)
    }
}

struct GRDBAttachment: FetchableRecord, PersistableRecord {
    static let databaseTableName = "attachments"
    let uniqueID: String
    let mimeType: String
    let height: Int64
    let width: Int64

    init(_ values: AttachmentValues) {
        uniqueID = values.uniqueID
        mimeType = values.mimeType
        height = values.height
        width = values.width
    }

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        mimeType = try row.decode(forColumn: "mimeType")
        height = try row.decode(forColumn: "height")
        width = try row.decode(forColumn: "width")
    }

    func encode(to container: inout PersistenceContainer) {
        container["uniqueID"] = uniqueID
        container["mimeType"] = mimeType
        container["height"] = height
        container["width"] = width
    }
}

/// A row of tagsNotesLookup.
struct GRDBTagLookup: FetchableRecord, PersistableRecord {
    static let databaseTableName = "tagsNotesLookup"
    let noteID: Int64
    let tagID: String
    let ix: Int64

    init(noteID: Int64, tagID: String, ix: Int64) {
        self.noteID = noteID
        self.tagID = tagID
        self.ix = ix
    }

    init(row: Row) throws {
        noteID = try row.decode(forColumn: "noteID")
        tagID = try row.decode(forColumn: "tagID")
        ix = try row.decode(forColumn: "ix")
    }

    func encode(to container: inout PersistenceContainer) {
        container["noteID"] = noteID
        container["tagID"] = tagID
        container["ix"] = ix
    }
}

/// A row of attachmentsNotesLookup.
struct GRDBAttachmentLookup: FetchableRecord, PersistableRecord {
    static let databaseTableName = "attachmentsNotesLookup"
    let noteID: Int64
    let attachmentID: String
    let ix: Int64

    init(noteID: Int64, attachmentID: String, ix: Int64) {
        self.noteID = noteID
        self.attachmentID = attachmentID
        self.ix = ix
    }

    init(row: Row) throws {
        noteID = try row.decode(forColumn: "noteID")
        attachmentID = try row.decode(forColumn: "attachmentID")
        ix = try row.decode(forColumn: "ix")
    }

    func encode(to container: inout PersistenceContainer) {
        container["noteID"] = noteID
        container["attachmentID"] = attachmentID
        container["ix"] = ix
    }
}

/// `Sendable` (its properties are constants) so that GRDB's async `read` and `write` can hand
/// articles between its connections' queues and the main actor (`reads-during-write`).
final class GRDBArticle: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "articles"
    let uniqueID: Int64
    let feedID: String
    let title: String
    let url: String
    let datePublished: Date
    let read: Bool
    let starred: Bool

    init(_ values: ArticleValues) {
        uniqueID = values.uniqueID
        feedID = values.feedID
        title = values.title
        url = values.url
        datePublished = values.datePublished
        read = values.read
        starred = values.starred
    }

    init(row: Row) throws {
        uniqueID = try row.decode(forColumn: "uniqueID")
        feedID = try row.decode(forColumn: "feedID")
        title = try row.decode(forColumn: "title")
        url = try row.decode(forColumn: "url")
        datePublished = Date(timeIntervalSince1970: try row.decode(forColumn: "datePublished"))
        read = try row.decode(forColumn: "read")
        starred = try row.decode(forColumn: "starred")
    }

    func encode(to container: inout PersistenceContainer) {
        container["uniqueID"] = uniqueID
        container["feedID"] = feedID
        container["title"] = title
        container["url"] = url
        container["datePublished"] = datePublished.timeIntervalSince1970
        container["read"] = read
        container["starred"] = starred
    }
}
