import Foundation

// The model types of the raw sqlite3 implementations: the same stored properties as the
// GRDB and QSData types (classes where those are classes, structs where they are structs).

struct RawTimelineNote {
    let uniqueID: Int64
    let truncatedText: String?
    let links: [String]?
    let sortDate: Date
    let thumbnailID: String?
    let archived: Bool
}

final class RawNote {
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
    var tags: [RawTag] = []
    var attachments: [RawAttachment] = []

    init(uniqueID: Int64, truncatedText: String?, links: [String]?, sortDate: Date, thumbnailID: String?, archived: Bool,
         text: String?, creationDate: Date, textModificationDate: Date?, sortDateModificationDate: Date?,
         archivedModificationDate: Date?, tagsModificationDate: Date?, attachmentsModificationDate: Date?, modificationDate: Date?) {
        self.uniqueID = uniqueID
        self.truncatedText = truncatedText
        self.links = links
        self.sortDate = sortDate
        self.thumbnailID = thumbnailID
        self.archived = archived
        self.text = text
        self.creationDate = creationDate
        self.textModificationDate = textModificationDate
        self.sortDateModificationDate = sortDateModificationDate
        self.archivedModificationDate = archivedModificationDate
        self.tagsModificationDate = tagsModificationDate
        self.attachmentsModificationDate = attachmentsModificationDate
        self.modificationDate = modificationDate
    }

    convenience init(_ values: NoteValues, tags: [RawTag]) {
        self.init(
            uniqueID: values.uniqueID, truncatedText: values.truncatedText, links: values.links, sortDate: values.sortDate,
            thumbnailID: values.thumbnailID, archived: values.archived, text: values.text, creationDate: values.creationDate,
            textModificationDate: values.textModificationDate, sortDateModificationDate: values.sortDateModificationDate,
            archivedModificationDate: values.archivedModificationDate, tagsModificationDate: values.tagsModificationDate,
            attachmentsModificationDate: values.attachmentsModificationDate, modificationDate: values.modificationDate)
        self.tags = values.tagIndexes.map { tags[$0] }
        self.attachments = [RawAttachment(values.attachment)]
    }
}

final class RawTag {
    let uniqueID: String
    var name: String
    var nameModificationDate: Date?

    init(uniqueID: String, name: String, nameModificationDate: Date?) {
        self.uniqueID = uniqueID
        self.name = name
        self.nameModificationDate = nameModificationDate
    }

    convenience init(_ values: TagValues) {
        self.init(uniqueID: values.uniqueID, name: values.name, nameModificationDate: values.nameModificationDate)
    }
}

struct RawAttachment {
    let uniqueID: String
    let mimeType: String
    let height: Int64
    let width: Int64

    init(uniqueID: String, mimeType: String, height: Int64, width: Int64) {
        self.uniqueID = uniqueID
        self.mimeType = mimeType
        self.height = height
        self.width = width
    }

    init(_ values: AttachmentValues) {
        self.init(uniqueID: values.uniqueID, mimeType: values.mimeType, height: values.height, width: values.width)
    }
}

final class RawArticle {
    let uniqueID: Int64
    var feedID: String
    var title: String
    var url: String
    var datePublished: Date
    var read: Bool
    var starred: Bool

    init(uniqueID: Int64, feedID: String, title: String, url: String, datePublished: Date, read: Bool, starred: Bool) {
        self.uniqueID = uniqueID
        self.feedID = feedID
        self.title = title
        self.url = url
        self.datePublished = datePublished
        self.read = read
        self.starred = starred
    }

    convenience init(_ values: ArticleValues) {
        self.init(uniqueID: values.uniqueID, feedID: values.feedID, title: values.title, url: values.url,
                  datePublished: values.datePublished, read: values.read, starred: values.starred)
    }
}
