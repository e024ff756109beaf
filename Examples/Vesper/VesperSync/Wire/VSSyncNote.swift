import Foundation
import WireDates
import VesperCore

/// A note as it travels (PROTOCOL.md, "Notes"): typed values, dates as `Date`, tags as ordered names,
/// attachments as metadata. Mergers compare these with model objects and never see JSON.
///
/// Absent, null and (for dates) unparseable values are all nil. A note always travels with its
/// tag names and attachment metadata: an empty list means "none", which is how clearing them
/// propagates.
public struct VSSyncNote: Sendable, Equatable {
    public var noteID: Int64
    public var text: String?
    public var archived: Bool
    public var creationDate: Date?
    public var sortDate: Date?
    public var textModificationDate: Date?
    public var archivedModificationDate: Date?
    public var sortDateModificationDate: Date?
    public var tagsModificationDate: Date?
    public var attachmentsModificationDate: Date?
    public var tagNames: [String]
    public var attachments: [VSSyncAttachment]

    public init(
        noteID: Int64, text: String?, archived: Bool = false, creationDate: Date?, sortDate: Date?,
        textModificationDate: Date? = nil, archivedModificationDate: Date? = nil, sortDateModificationDate: Date? = nil,
        tagsModificationDate: Date? = nil, attachmentsModificationDate: Date? = nil,
        tagNames: [String] = [], attachments: [VSSyncAttachment] = []
    ) {
        self.noteID = noteID
        self.text = text
        self.archived = archived
        self.creationDate = creationDate
        self.sortDate = sortDate
        self.textModificationDate = textModificationDate
        self.archivedModificationDate = archivedModificationDate
        self.sortDateModificationDate = sortDateModificationDate
        self.tagsModificationDate = tagsModificationDate
        self.attachmentsModificationDate = attachmentsModificationDate
        self.tagNames = tagNames
        self.attachments = attachments
    }

    /// The note as it is here, with its ordered tag names and attachment metadata.
    @MainActor public init(_ note: VSNote) {
        self.init(
            noteID: note.uniqueID, text: note.text, archived: note.archived,
            creationDate: note.creationDate, sortDate: note.sortDate,
            textModificationDate: note.textModificationDate, archivedModificationDate: note.archivedModificationDate,
            sortDateModificationDate: note.sortDateModificationDate, tagsModificationDate: note.tagsModificationDate,
            attachmentsModificationDate: note.attachmentsModificationDate,
            tagNames: note.tags.map(\.name), attachments: note.attachments.map(VSSyncAttachment.init))
    }

    /// Reads a note from the server.
    /// - Throws: ``VSSyncObjectError`` when it is not an object, has no integer `noteID`, or has
    ///   an `attachments` value that is not base64 JSON.
    public init(json: VSJSON) throws {
        guard case .object = json else { throw VSSyncObjectError.notAnObject(kind: "note") }
        guard let noteID = json["noteID"]?.integer else { throw VSSyncObjectError.missingValue(kind: "note", key: "noteID") }
        func date(_ key: String) -> Date? { json[key]?.string.flatMap(VSSyncDate.date(from:)) }

        let tagNames = Self.tagNames(fromWire: json["tags"]?.string)
        guard tagNames.allSatisfy({ VSTag.cleanedName($0).count <= VSTag.maximumNameLength }) else {
            throw VSSyncObjectError.invalidValue(kind: "note", key: "tags")
        }
        var attachments: [VSSyncAttachment] = []
        if let encoded = json["attachments"]?.string, !encoded.isEmpty {
            guard let list = VSSyncAttachment.list(base64: encoded) else { throw VSSyncObjectError.badAttachments(noteID: noteID) }
            attachments = list
        }
        self.init(
            noteID: noteID, text: json["text"]?.string, archived: json["archived"]?.bool ?? false,
            creationDate: date("creationDate"), sortDate: date("sortDate"),
            textModificationDate: date("textModificationDate"), archivedModificationDate: date("archivedModificationDate"),
            sortDateModificationDate: date("sortDateModificationDate"), tagsModificationDate: date("tagsModificationDate"),
            attachmentsModificationDate: date("attachmentsModificationDate"),
            tagNames: tagNames, attachments: attachments)
    }

    /// The upload form: `text` always (`""` when nil), `archived`, `creationDate` and
    /// `sortDate` always (the old date when nil), modification dates when set, `tags` and
    /// `attachments` only when there are any.
    public func json() throws -> VSJSON {
        var object: [String: VSJSON] = [
            "noteID": .integer(noteID),
            "text": .string(text ?? ""),
            "archived": .bool(archived),
            "creationDate": .string(VSSyncDate.string(from: creationDate ?? Self.oldDate)),
            "sortDate": .string(VSSyncDate.string(from: sortDate ?? creationDate ?? Self.oldDate)),
        ]
        let dates: [(String, Date?)] = [
            ("textModificationDate", textModificationDate), ("archivedModificationDate", archivedModificationDate),
            ("sortDateModificationDate", sortDateModificationDate), ("tagsModificationDate", tagsModificationDate),
            ("attachmentsModificationDate", attachmentsModificationDate),
        ]
        for case let (key, date?) in dates { object[key] = .string(VSSyncDate.string(from: date)) }
        if !tagNames.isEmpty { object["tags"] = .string(Self.wireTags(tagNames)) }
        if !attachments.isEmpty { object["attachments"] = .string(try VSSyncAttachment.base64(attachments)) }
        return .object(object)
    }

    /// The stand-in for a missing creation or sort date (`WireDate.oldDate`, 2012-12-12T12:00:00Z).
    public static let oldDate = VSSyncDate.date(milliseconds: WireDate.oldDate)

    /// Tag names joined by exactly two spaces (normalised names never contain two in a row).
    public static func wireTags(_ names: [String]) -> String {
        names.map(VSTag.cleanedName).joined(separator: "  ")
    }

    /// The names in a two-space tag list, in order, empty components dropped.
    public static func tagNames(fromWire string: String?) -> [String] {
        guard let string else { return [] }
        return string.components(separatedBy: "  ").filter { !VSTag.cleanedName($0).isEmpty }
    }
}
