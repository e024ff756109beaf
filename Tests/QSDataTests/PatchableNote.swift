import QSData

/// A note a test can make wait, or refuse, as the store patches it after a bulk update: the store
/// hands `beforeUpdate` the row it is about to apply.
final class PatchableNote: QSUpdatableObject {
    static let modelName = "Note"
    struct RefusesToBeArchived: Error {}

    let uniqueID: Int64
    var text: String
    var archived = false
    var sortDate = Fixtures.referenceDate
    var links: [String]?
    var tags: [Tag] = []
    var attachments: [Attachment] = []
    var beforeUpdate: ((QSRow) throws -> Void)?

    init(uniqueID: Int64, text: String) {
        self.uniqueID = uniqueID
        self.text = text
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    /// From now on the note throws ``RefusesToBeArchived`` when a patch would archive it.
    func refuseArchiving() {
        beforeUpdate = { row in
            let archived: Bool = try row["archived"]
            if archived { throw RefusesToBeArchived() }
        }
    }

    func update(from row: QSRow) throws {
        try beforeUpdate?(row)
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["text"] = text
        row["archived"] = archived
        row["sortDate"] = sortDate
        row["links"] = links
        row.setRelated("tags", tags)
        row.setRelated("attachments", attachments)
    }
}
