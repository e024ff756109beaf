import Foundation
import QSData

/// A note with everything the detail view and sync need: its text, dates, tags and attachments.
///
/// Uniqued: the store hands out at most one instance per uniqueID, so an edit made through the
/// data controller is seen by everyone holding the note. Change notes through
/// ``VSDataController``'s `userDid…` methods (or its sync-apply path), never by setting
/// properties directly: those methods keep the modification dates and calculated values right.
public final class VSNote: QSUpdatableObject {
    public let uniqueID: Int64
    public internal(set) var text: String
    /// The text for the timeline: calculated from `text`.
    public internal(set) var truncatedText: String?
    /// The web links in `text`, in order: calculated from `text`.
    public internal(set) var links: [String]?
    /// The uniqueID of the first image attachment: calculated from `attachments`.
    public internal(set) var thumbnailID: String?
    public internal(set) var archived: Bool
    public let creationDate: Date
    public internal(set) var sortDate: Date

    /// Per-property modification dates: when each value last changed, here or on another device.
    /// Sync merges property by property using them.
    public internal(set) var textModificationDate: Date?
    public internal(set) var sortDateModificationDate: Date?
    public internal(set) var archivedModificationDate: Date?
    public internal(set) var tagsModificationDate: Date?
    public internal(set) var attachmentsModificationDate: Date?
    /// The local modification date: set by user changes only, it marks the note for upload.
    public internal(set) var modificationDate: Date?

    public internal(set) var tags: [VSTag]
    public internal(set) var attachments: [VSAttachment]

    /// A new note, not yet saved. Use ``VSDataController/userDidCreateNote(text:tagNames:)``.
    init(uniqueID: Int64, text: String, creationDate: Date) {
        self.uniqueID = uniqueID
        self.text = text
        self.archived = false
        self.creationDate = creationDate
        self.sortDate = creationDate
        self.tags = []
        self.attachments = []
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        creationDate = try row["creationDate"]
        text = ""
        archived = false
        sortDate = creationDate
        tags = []
        attachments = []
        try update(from: row)
    }

    public func update(from row: QSRow) throws {
        text = try row["text"]
        truncatedText = try row["truncatedText"]
        links = try row["links"]
        thumbnailID = try row["thumbnailID"]
        archived = try row["archived"]
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

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["creationDate"] = creationDate
        row["text"] = text
        row["truncatedText"] = truncatedText
        row["links"] = links
        row["thumbnailID"] = thumbnailID
        row["archived"] = archived
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

    /// Recomputes the values calculated from the text and the attachments.
    func recalculate() {
        truncatedText = VSNoteText.truncated(text)
        let found = VSNoteText.links(in: text)
        links = found.isEmpty ? nil : found
        thumbnailID = attachments.first(where: \.isImage)?.uniqueID
    }
}
