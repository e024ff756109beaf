import Foundation
import QSData
import Testing

/// Vesper's own DataModel2.plist and CreateStatements2.sql, loaded unchanged from ../shared.
private enum OriginalVesper {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/reference/vesper-original")
    static let modelURL = folder.appendingPathComponent("DataModel2.plist")
    static let schemaURL = folder.appendingPathComponent("CreateStatements2.sql")
    static var isAvailable: Bool { FileManager.default.fileExists(atPath: modelURL.path) }
}

private final class OriginalNote: QSUpdatableObject {
    static let modelName = "VSNote"
    let uniqueID: Int64
    var text: String?
    var truncatedText: String?
    var links: [String]?
    var thumbnailID: String?
    var archived = false
    var creationDate: Date
    var sortDate: Date
    var textModificationDate: Date?
    var sortDateModificationDate: Date?
    var archivedModificationDate: Date?
    var tagsModificationDate: Date?
    var attachmentsModificationDate: Date?
    var modificationDate: Date?
    var tags: [OriginalTag] = []
    var attachments: [OriginalAttachment] = []

    init(uniqueID: Int64, text: String, date: Date) {
        self.uniqueID = uniqueID
        self.text = text
        self.creationDate = date
        self.sortDate = date
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        creationDate = try row["creationDate"]
        sortDate = try row["sortDate"]
        try update(from: row)
    }

    func update(from row: QSRow) throws {
        text = try row["text"]
        truncatedText = try row["truncatedText"]
        links = try row["links"]
        thumbnailID = try row["thumbnailID"]
        archived = try row["archived"]
        creationDate = try row["creationDate"]
        sortDate = try row["sortDate"]
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
        row["text"] = text
        row["truncatedText"] = truncatedText
        row["links"] = links
        row["thumbnailID"] = thumbnailID
        row["archived"] = archived
        row["creationDate"] = creationDate
        row["sortDate"] = sortDate
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

private struct OriginalTimelineNote: QSDataObject {
    static let modelName = "VSTimelineNote"
    let uniqueID: Int64
    let truncatedText: String?
    let links: [String]?
    let sortDate: Date
    let thumbnailID: String?
    let archived: Bool

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
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

private final class OriginalTag: QSUpdatableObject {
    static let modelName = "VSTag"
    let uniqueID: String
    var name: String
    var nameModificationDate: Date?

    init(name: String) {
        uniqueID = name.lowercased()
        self.name = name
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

private struct OriginalAttachment: QSDataObject, Equatable {
    static let modelName = "VSAttachment"
    let uniqueID: String
    let mimeType: String
    let height: Int64?
    let width: Int64?

    init(uniqueID: String, mimeType: String, height: Int64?, width: Int64?) {
        self.uniqueID = uniqueID
        self.mimeType = mimeType
        self.height = height
        self.width = width
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        mimeType = try row["mimeType"]
        height = try row["height"]
        width = try row["width"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["mimeType"] = mimeType
        row["height"] = height
        row["width"] = width
    }
}

@MainActor
@Suite(.enabled(if: OriginalVesper.isAvailable, "needs ../shared/reference/vesper-original"))
struct OriginalVesperModelTests {
    private func open(_ url: URL) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: QSDataModel(contentsOf: OriginalVesper.modelURL),
            schema: QSSchema(creationFile: OriginalVesper.schemaURL),
            types: [OriginalNote.self, OriginalTimelineNote.self, OriginalTag.self, OriginalAttachment.self])
    }

    @Test func theOriginalModelLoadsUnchanged() throws {
        let model = try QSDataModel(contentsOf: OriginalVesper.modelURL)
        #expect(model.objectTypes.keys.sorted() == ["VSAttachment", "VSNote", "VSTag", "VSTimelineNote"])
        #expect(model["VSNote"]?.properties.count == 14)
        #expect(model["VSTimelineNote"]?.properties.count == 6)
        #expect(model["VSNote"]?.relationships.map(\.table) == ["attachmentsNotesLookup", "tagsNotesLookup"])
        #expect(model["VSAttachment"]?.immutable == true)
    }

    @Test func aNoteWithOrderedTagsAndAttachmentsRoundTrips() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await open(url)
        let date = Date(timeIntervalSince1970: 1_393_632_000.125)
        let note = OriginalNote(uniqueID: 4_503_599_627_370_496, text: "Vesper notes\nsecond line", date: date)
        note.links = ["https://example.org/a", "https://example.org/b"]
        note.textModificationDate = date
        note.tags = [OriginalTag(name: "Zebra"), OriginalTag(name: "apple"), OriginalTag(name: "Mango")]
        note.attachments = [
            OriginalAttachment(uniqueID: "B2", mimeType: "image/jpeg", height: 10, width: 20),
            OriginalAttachment(uniqueID: "A1", mimeType: "image/png", height: nil, width: nil),
        ]
        try store.save(note)
        try await store.close()

        let reopened = try await open(url)
        let fetched = try #require(try await reopened.fetch(OriginalNote.self, id: note.uniqueID))
        #expect(fetched.text == note.text)
        #expect(fetched.links == note.links)
        #expect(fetched.creationDate == date)
        #expect(fetched.textModificationDate == date)
        #expect(fetched.modificationDate == nil)
        #expect(fetched.tags.map(\.name) == ["Zebra", "apple", "Mango"])
        #expect(fetched.attachments == note.attachments)
        let timeline = try await reopened.fetchAll(OriginalTimelineNote.self)
        #expect(timeline.map(\.uniqueID) == [note.uniqueID])
        #expect(timeline.first?.links == note.links)
    }
}
