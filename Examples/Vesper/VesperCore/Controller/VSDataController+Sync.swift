import Foundation
import QSData

/// A value from the sync server with the date it last changed there (nil when the server has
/// none: a note created on a device that never changed that property).
public struct VSServerValue<Value: Sendable>: Sendable {
    public var value: Value
    public var modificationDate: Date?

    public init(_ value: Value, modificationDate: Date?) {
        self.value = value
        self.modificationDate = modificationDate
    }
}

/// The server's values for one note: the properties the merger decided to take, each with its
/// server modification date. Properties left nil are not touched.
public struct VSNoteServerValues: Sendable {
    public var text: VSServerValue<String>?
    public var sortDate: VSServerValue<Date>?
    public var archived: VSServerValue<Bool>?
    public var tagNames: VSServerValue<[String]>?
    public var attachments: VSServerValue<[VSAttachment]>?

    public init(
        text: VSServerValue<String>? = nil, sortDate: VSServerValue<Date>? = nil, archived: VSServerValue<Bool>? = nil,
        tagNames: VSServerValue<[String]>? = nil, attachments: VSServerValue<[VSAttachment]>? = nil
    ) {
        self.text = text
        self.sortDate = sortDate
        self.archived = archived
        self.tagNames = tagNames
        self.attachments = attachments
    }
}

/// The sync path: applies server values and their dates, saved with source `.sync`. It never
/// touches the local `modificationDate`, so applying the server's state does not mark the note
/// for upload again.
extension VSDataController {
    /// Sets the server's values and modification dates on an existing note.
    public func applySyncValues(_ values: VSNoteServerValues, to note: VSNote) throws {
        // Tags first seen in a note from the server have no name date of their own here: nil
        // loses to any date, so they can't override a newer case change made elsewhere.
        let tags = try values.tagNames.map { try resolveTags(named: $0.value, newTagDate: nil) }
        if let text = values.text {
            note.text = text.value
            note.textModificationDate = text.modificationDate
        }
        if let sortDate = values.sortDate {
            note.sortDate = sortDate.value
            note.sortDateModificationDate = sortDate.modificationDate
        }
        if let archived = values.archived {
            note.archived = archived.value
            note.archivedModificationDate = archived.modificationDate
        }
        if let tagNames = values.tagNames, let tags {
            note.tags = tags
            note.tagsModificationDate = tagNames.modificationDate
        }
        if let attachments = values.attachments {
            note.attachments = attachments.value
            note.attachmentsModificationDate = attachments.modificationDate
        }
        note.recalculate()
        try store.save(note, source: .sync)
    }

    /// Creates a note that exists on the server, with the server's uniqueID, creation date and values.
    @discardableResult
    public func applySyncNewNote(uniqueID: Int64, creationDate: Date, values: VSNoteServerValues) throws -> VSNote {
        let note = VSNote(uniqueID: uniqueID, text: "", creationDate: creationDate)
        try applySyncValues(values, to: note)
        return note
    }
}
