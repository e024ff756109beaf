import Foundation
import WireDates

/// One element of a `notes` request body, exactly as the client sent it (PROTOCOL.md, "Notes").
///
/// Decoding checks types only; ``syncNote()`` checks values. Unknown keys are ignored.
struct WireNote: Decodable {
    var noteID: Int64
    var archived: Bool?
    var text: String?
    var creationDate: String?
    var sortDate: String?
    var textModificationDate: String?
    var archivedModificationDate: String?
    var sortDateModificationDate: String?
    var tagsModificationDate: String?
    var attachmentsModificationDate: String?
    var tags: String?
    var attachments: String?

    private enum CodingKeys: String, CodingKey {
        case noteID, archived, text, creationDate, sortDate, textModificationDate, archivedModificationDate
        case sortDateModificationDate, tagsModificationDate, attachmentsModificationDate, tags, attachments
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        noteID = try container.decode(Int64.self, forKey: .noteID)
        // The stock client sends a boolean; it also accepts 0/1 itself, so the server does too.
        if let flag = try? container.decodeIfPresent(Bool.self, forKey: .archived) {
            archived = flag
        } else if let number = try container.decodeIfPresent(Int64.self, forKey: .archived) {
            archived = number != 0
        }
        text = try container.decodeIfPresent(String.self, forKey: .text)
        creationDate = try container.decodeIfPresent(String.self, forKey: .creationDate)
        sortDate = try container.decodeIfPresent(String.self, forKey: .sortDate)
        textModificationDate = try container.decodeIfPresent(String.self, forKey: .textModificationDate)
        archivedModificationDate = try container.decodeIfPresent(String.self, forKey: .archivedModificationDate)
        sortDateModificationDate = try container.decodeIfPresent(String.self, forKey: .sortDateModificationDate)
        tagsModificationDate = try container.decodeIfPresent(String.self, forKey: .tagsModificationDate)
        attachmentsModificationDate = try container.decodeIfPresent(
            String.self, forKey: .attachmentsModificationDate)
        tags = try container.decodeIfPresent(String.self, forKey: .tags)
        attachments = try container.decodeIfPresent(String.self, forKey: .attachments)
    }

    /// The typed note, or nil for a falsy `noteID` (0), which the original server skipped.
    ///
    /// - Throws: ``APIError/badRequest(_:)`` for an out-of-range ID, an unparseable `creationDate`
    ///   or `sortDate`, or `attachments` that are not a valid attachment list (see
    ///   ``WireAttachments``). Unparseable *modification* dates mean
    ///   "no value".
    func syncNote() throws(APIError) -> SyncNote? {
        if noteID == 0 { return nil }
        guard noteID > 0, noteID <= maximumNoteID else {
            throw .badRequest("noteID \(noteID) is out of range")
        }
        func requiredDate(_ string: String?, _ key: String) throws(APIError) -> Int64 {
            guard let string else { return WireDate.oldDate }
            guard let date = WireDate.milliseconds(from: string) else {
                throw .badRequest("note \(noteID): \(key) is not a date")
            }
            return date
        }
        for name in (tags ?? "").components(separatedBy: "  ") {
            try TagName.checkLength(TagName.normalized(name))
        }
        var attachmentJSON: Data?
        if let attachments, !attachments.isEmpty {
            attachmentJSON = try WireAttachments.validatedJSON(base64: attachments, noteID: noteID)
        }
        return SyncNote(
            noteID: noteID,
            archived: archived,
            text: text,
            creationDate: try requiredDate(creationDate, "creationDate"),
            sortDate: try requiredDate(sortDate, "sortDate"),
            textModificationDate: textModificationDate.flatMap(WireDate.milliseconds(from:)),
            archivedModificationDate: archivedModificationDate.flatMap(WireDate.milliseconds(from:)),
            sortDateModificationDate: sortDateModificationDate.flatMap(WireDate.milliseconds(from:)),
            tagsModificationDate: tagsModificationDate.flatMap(WireDate.milliseconds(from:)),
            attachmentsModificationDate: attachmentsModificationDate.flatMap(WireDate.milliseconds(from:)),
            tags: tags,
            attachments: attachmentJSON)
    }
}

/// One element of a `notes` response: every key present, `null` for no value.
struct WireNoteResponse: Encodable {
    let note: SyncNote

    private enum CodingKeys: String, CodingKey {
        case noteID, archived, text, creationDate, sortDate, textModificationDate, archivedModificationDate
        case sortDateModificationDate, tagsModificationDate, attachmentsModificationDate, tags, attachments
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(note.noteID, forKey: .noteID)
        // An archived flag that was never sent is emitted as false, never null.
        try container.encode(note.archived ?? false, forKey: .archived)
        try container.encode(note.text, forKey: .text)
        try container.encode(WireDate.string(from: note.creationDate), forKey: .creationDate)
        try container.encode(WireDate.string(from: note.sortDate), forKey: .sortDate)
        try container.encode(note.textModificationDate.map(WireDate.string(from:)), forKey: .textModificationDate)
        try container.encode(
            note.archivedModificationDate.map(WireDate.string(from:)), forKey: .archivedModificationDate)
        try container.encode(
            note.sortDateModificationDate.map(WireDate.string(from:)), forKey: .sortDateModificationDate)
        try container.encode(note.tagsModificationDate.map(WireDate.string(from:)), forKey: .tagsModificationDate)
        try container.encode(
            note.attachmentsModificationDate.map(WireDate.string(from:)), forKey: .attachmentsModificationDate)
        try container.encode(note.tags, forKey: .tags)
        try container.encode(note.attachments.map { $0.base64EncodedString() }, forKey: .attachments)
    }
}
