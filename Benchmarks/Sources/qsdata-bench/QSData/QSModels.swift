import Foundation
import QSData

// The QSData model types, as an app writes them: properties read and written by column name.

struct VSTimelineNote: QSDataObject {
    let uniqueID: Int64
    let truncatedText: String?
    let links: [String]?
    let sortDate: Date
    let thumbnailID: String?
    let archived: Bool

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["truncatedText"] = truncatedText
        row["links"] = links
        row["sortDate"] = sortDate
        row["thumbnailID"] = thumbnailID
        row["archived"] = archived
    }
}

// In an extension, so that the struct keeps its memberwise initializer; the row is read into it,
// as QSDataObject's documentation recommends for structs.
extension VSTimelineNote {
    init(row: QSRow) throws {
        self.init(
            uniqueID: try row["uniqueID"],
            truncatedText: try row["truncatedText"],
            links: try row["links"],
            sortDate: try row["sortDate"],
            thumbnailID: try row["thumbnailID"],
            archived: try row["archived"])
    }
}

/// The timeline columns as a uniqued class, for the memory workload only (its own store: as a
/// caching sibling of VSNote it would change what saving notes does in the other workloads).
/// It holds the same stored values as `VSTimelineNote`, inline.
final class VSTimelineNoteObject: QSUpdatableObject {
    private(set) var values: VSTimelineNote

    var uniqueID: Int64 { values.uniqueID }

    init(row: QSRow) throws {
        values = try VSTimelineNote(row: row)
    }

    func update(from row: QSRow) throws {
        values = try VSTimelineNote(row: row)
    }

    func encode(to row: inout QSRowEncoder) {
        values.encode(to: &row)
    }
}

/// The timeline columns as a uniqued class that marks each property the app sets, as generated
/// model types do (`QSChangeTrackingObject`): the store keeps no copy of its rows' values. For
/// the memory workload only, on the same store as `VSTimelineNoteObject`.
final class VSTimelineNoteMarkingObject: QSChangeTrackingObject {
    let uniqueID: Int64
    var truncatedText: String? { didSet { changedProperties.insert("truncatedText", from: oldValue, to: truncatedText) } }
    var links: [String]? { didSet { changedProperties.insert("links", from: oldValue, to: links) } }
    var sortDate: Date { didSet { changedProperties.insert("sortDate", from: oldValue, to: sortDate) } }
    var thumbnailID: String? { didSet { changedProperties.insert("thumbnailID", from: oldValue, to: thumbnailID) } }
    var archived: Bool { didSet { changedProperties.insert("archived", from: oldValue, to: archived) } }
    var changedProperties = QSChangedProperties()

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        truncatedText = try row["truncatedText"]
        links = try row["links"]
        sortDate = try row["sortDate"]
        thumbnailID = try row["thumbnailID"]
        archived = try row["archived"]
    }

    func update(from row: QSRow) throws {
        truncatedText = try row["truncatedText"]
        links = try row["links"]
        sortDate = try row["sortDate"]
        thumbnailID = try row["thumbnailID"]
        archived = try row["archived"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["truncatedText"] = truncatedText
        row["links"] = links
        row["sortDate"] = sortDate
        row["thumbnailID"] = thumbnailID
        row["archived"] = archived
    }
}

final class VSNote: QSUpdatableObject {
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
    var tags: [VSTag]
    var attachments: [VSAttachment]

    init(_ values: NoteValues, tags: [VSTag]) {
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
        attachments = [VSAttachment(values.attachment)]
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        truncatedText = try row["truncatedText"]
        links = try row["links"]
        sortDate = try row["sortDate"]
        thumbnailID = try row["thumbnailID"]
        archived = try row["archived"]
        text = try row["text"]
        creationDate = try row["creationDate"]
        textModificationDate = try row["textModificationDate"]
        sortDateModificationDate = try row["sortDateModificationDate"]
        archivedModificationDate = try row["archivedModificationDate"]
        tagsModificationDate = try row["tagsModificationDate"]
        attachmentsModificationDate = try row["attachmentsModificationDate"]
        modificationDate = try row["modificationDate"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func update(from row: QSRow) throws {
        truncatedText = try row["truncatedText"]
        links = try row["links"]
        sortDate = try row["sortDate"]
        thumbnailID = try row["thumbnailID"]
        archived = try row["archived"]
        text = try row["text"]
        creationDate = try row["creationDate"]
        textModificationDate = try row["textModificationDate"]
        sortDateModificationDate = try row["sortDateModificationDate"]
        archivedModificationDate = try row["archivedModificationDate"]
        tagsModificationDate = try row["tagsModificationDate"]
        attachmentsModificationDate = try row["attachmentsModificationDate"]
        modificationDate = try row["modificationDate"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["truncatedText"] = truncatedText
        row["links"] = links
        row["sortDate"] = sortDate
        row["thumbnailID"] = thumbnailID
        row["archived"] = archived
        row["text"] = text
        row["creationDate"] = creationDate
        row["textModificationDate"] = textModificationDate
        row["sortDateModificationDate"] = sortDateModificationDate
        row["archivedModificationDate"] = archivedModificationDate
        row["tagsModificationDate"] = tagsModificationDate
        row["attachmentsModificationDate"] = attachmentsModificationDate
        row["modificationDate"] = modificationDate
        row.setRelated("tags", tags)
        row.setRelated("attachments", attachments)
    }
}

final class VSTag: QSUpdatableObject {
    let uniqueID: String
    var name: String
    var nameModificationDate: Date?

    init(_ values: TagValues) {
        uniqueID = values.uniqueID
        name = values.name
        nameModificationDate = values.nameModificationDate
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
        nameModificationDate = try row["nameModificationDate"]
    }

    func update(from row: QSRow) throws {
        name = try row["name"]
        nameModificationDate = try row["nameModificationDate"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
        row["nameModificationDate"] = nameModificationDate
    }
}

struct VSAttachment: QSDataObject {
    let uniqueID: String
    let mimeType: String
    let height: Int64
    let width: Int64

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["mimeType"] = mimeType
        row["height"] = height
        row["width"] = width
    }
}

extension VSAttachment {
    init(_ values: AttachmentValues) {
        self.init(uniqueID: values.uniqueID, mimeType: values.mimeType, height: values.height, width: values.width)
    }

    init(row: QSRow) throws {
        self.init(
            uniqueID: try row["uniqueID"],
            mimeType: try row["mimeType"],
            height: try row["height"],
            width: try row["width"])
    }
}

final class Article: QSUpdatableObject {
    let uniqueID: Int64
    var feedID: String
    var title: String
    var url: String
    var datePublished: Date
    var read: Bool
    var starred: Bool

    /// A new article, for the workloads that save articles while reads run.
    init(_ values: ArticleValues) {
        uniqueID = values.uniqueID
        feedID = values.feedID
        title = values.title
        url = values.url
        datePublished = values.datePublished
        read = values.read
        starred = values.starred
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        feedID = try row["feedID"]
        title = try row["title"]
        url = try row["url"]
        datePublished = try row["datePublished"]
        read = try row["read"]
        starred = try row["starred"]
    }

    func update(from row: QSRow) throws {
        feedID = try row["feedID"]
        title = try row["title"]
        url = try row["url"]
        datePublished = try row["datePublished"]
        read = try row["read"]
        starred = try row["starred"]
    }

    func update(column name: String, from row: QSRow) throws -> Bool {
        switch name {
        case "feedID": feedID = try row["feedID"]
        case "title": title = try row["title"]
        case "url": url = try row["url"]
        case "datePublished": datePublished = try row["datePublished"]
        case "read": read = try row["read"]
        case "starred": starred = try row["starred"]
        default: return false
        }
        return true
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["feedID"] = feedID
        row["title"] = title
        row["url"] = url
        row["datePublished"] = datePublished
        row["read"] = read
        row["starred"] = starred
    }
}

/// The benchmark's model and schema, from the package's resources.
enum BenchModel {
    static let types: [any QSDataObject.Type] = [VSNote.self, VSTimelineNote.self, VSTag.self, VSAttachment.self, Article.self]
    /// The same notes, generated from GeneratedNotes.plist.
    static let generatedTypes: [any QSDataObject.Type] = [GeneratedNote.self, GeneratedTimelineNote.self, GeneratedTag.self, GeneratedAttachment.self]

    static func resource(_ name: String, _ ext: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext) else {
            throw RawSQLiteError(description: "missing resource \(name).\(ext)")
        }
        return url
    }

    static func schemaSQL() throws -> String {
        try String(contentsOf: resource("Notes", "sql"), encoding: .utf8)
    }

    /// The full-text indexes and their triggers, for the search workloads.
    static func searchSQL() throws -> String {
        try String(contentsOf: resource("Search", "sql"), encoding: .utf8)
    }

    /// A store on `path` for the hand-written types, or for the generated ones; with
    /// `searchable`, the model declares the indexes of `Search.sql` (which the database must have).
    @MainActor
    static func openStore(_ path: String, generated: Bool = false, searchable: Bool = false, timelineObjects: Bool = false) async throws -> QSStore {
        let model: QSDataModel
        if searchable {
            model = try searchableModel()
        } else if timelineObjects {
            model = try timelineObjectsModel()
        } else {
            model = try QSDataModel(contentsOf: resource(generated ? "GeneratedNotes" : "Notes", "plist"))
        }
        return try await QSStore.open(
            at: URL(fileURLWithPath: path), model: model, schema: QSSchema(creationSQL: schemaSQL()),
            types: generated ? generatedTypes : timelineObjects ? types + [VSTimelineNoteObject.self, VSTimelineNoteMarkingObject.self] : types)
    }

    /// Notes.plist with VSTimelineNoteObject and VSTimelineNoteMarkingObject: VSTimelineNote's
    /// columns, uniqued.
    static func timelineObjectsModel() throws -> QSDataModel {
        try editedModel("Notes.plist + VSTimelineNoteObject") { objects in
            guard var timeline = objects["VSTimelineNote"] as? [String: Any] else { return false }
            timeline["uniqued"] = true
            objects["VSTimelineNoteObject"] = timeline
            objects["VSTimelineNoteMarkingObject"] = timeline
            return true
        }
    }

    /// Notes.plist with its `objects` changed by `edit` (false: not the expected model).
    static func editedModel(_ name: String, _ edit: (inout [String: Any]) -> Bool) throws -> QSDataModel {
        let data = try Data(contentsOf: resource("Notes", "plist"))
        guard var root = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              var objects = root["objects"] as? [String: Any], edit(&objects)
        else { throw RawSQLiteError(description: "Notes.plist is not the expected model") }
        root["objects"] = objects
        let plist = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        return try QSDataModel(propertyList: plist, fileName: name)
    }

    /// Notes.plist with `search` declared for Article (titles) and VSNote (text).
    static func searchableModel() throws -> QSDataModel {
        try editedModel("Notes.plist + search") { objects in
            guard var article = objects["Article"] as? [String: Any], var note = objects["VSNote"] as? [String: Any] else { return false }
            article["search"] = ["table": "articlesSearch", "columns": ["title"]]
            note["search"] = ["table": "notesSearch", "columns": ["text"]]
            objects["Article"] = article
            objects["VSNote"] = note
            return true
        }
    }
}
