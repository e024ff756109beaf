import Foundation
import NIOCore
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

    /// The typed note.
    ///
    /// - Throws: ``APIError/badRequest(_:)`` for an ID outside 1…2^53 (0 included, which the
    ///   original skipped silently), an unparseable `creationDate` or `sortDate`, or `attachments`
    ///   that are not a valid attachment list (see ``WireAttachments``). Unparseable
    ///   *modification* dates mean "no value".
    func syncNote() throws(APIError) -> SyncNote {
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
        // Normalising never lengthens a name, and a name has no more characters than UTF-8
        // bytes: only a long value can hold a name that is too long.
        if let tags, tags.utf8.count > TagName.maximumLength {
            for name in tags.components(separatedBy: "  ") {
                try TagName.checkLength(TagName.normalized(name))
            }
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

/// The body of a `notes` response: an array of notes, every key present, `null` for no value.
///
/// Written straight into a buffer rather than through `JSONEncoder`, whose generic machinery was
/// two-fifths of the server's time in a first sync of 10,000 notes (release build, perf).
enum WireNotesResponse {
    static func body(_ notes: [SyncNote]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(notes.reduce(2) { $0 + 400 + ($1.text?.utf8.count ?? 0) + ($1.attachments?.count ?? 0) * 2 })
        buffer.writeStaticString("[")
        for (index, note) in notes.enumerated() {
            if index > 0 { buffer.writeStaticString(",") }
            write(note, to: &buffer)
        }
        buffer.writeStaticString("]")
        return buffer
    }

    private static func write(_ note: SyncNote, to buffer: inout ByteBuffer) {
        buffer.writeStaticString("{\"noteID\":")
        buffer.writeString(String(note.noteID))
        // An archived flag that was never sent is emitted as false, never null.
        buffer.writeStaticString(note.archived == true ? ",\"archived\":true" : ",\"archived\":false")
        buffer.writeStaticString(",\"text\":")
        writeString(note.text, to: &buffer)
        let dates: [(key: StaticString, milliseconds: Int64?)] = [
            (",\"creationDate\":", note.creationDate), (",\"sortDate\":", note.sortDate),
            (",\"textModificationDate\":", note.textModificationDate),
            (",\"archivedModificationDate\":", note.archivedModificationDate),
            (",\"sortDateModificationDate\":", note.sortDateModificationDate),
            (",\"tagsModificationDate\":", note.tagsModificationDate),
            (",\"attachmentsModificationDate\":", note.attachmentsModificationDate),
        ]
        for date in dates {
            buffer.writeStaticString(date.key)
            writeDate(date.milliseconds, to: &buffer)
        }
        buffer.writeStaticString(",\"tags\":")
        writeString(note.tags, to: &buffer)
        buffer.writeStaticString(",\"attachments\":")
        writeString(note.attachments.map { $0.base64EncodedString() }, to: &buffer)
        buffer.writeStaticString("}")
    }

    private static func writeDate(_ milliseconds: Int64?, to buffer: inout ByteBuffer) {
        guard let milliseconds else {
            buffer.writeStaticString("null")
            return
        }
        writeString(WireDate.string(from: milliseconds), to: &buffer)
    }

    /// A JSON string: `"`, `\` and control characters escaped, everything else as its UTF-8
    /// bytes (slashes unescaped, as the rest of the API writes them).
    static func writeString(_ string: String?, to buffer: inout ByteBuffer) {
        guard var string else {
            buffer.writeStaticString("null")
            return
        }
        buffer.writeStaticString("\"")
        string.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices where bytes[index] < 0x20 || bytes[index] == 0x22 || bytes[index] == 0x5C {
                buffer.writeBytes(bytes[start..<index])
                switch bytes[index] {
                case 0x22: buffer.writeStaticString("\\\"")
                case 0x5C: buffer.writeStaticString("\\\\")
                case 0x0A: buffer.writeStaticString("\\n")
                case 0x0D: buffer.writeStaticString("\\r")
                case 0x09: buffer.writeStaticString("\\t")
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    buffer.writeStaticString("\\u00")
                    buffer.writeBytes([hex[Int(bytes[index] >> 4)], hex[Int(bytes[index] & 0x0F)]])
                }
                start = index + 1
            }
            buffer.writeBytes(bytes[start...])
        }
        buffer.writeStaticString("\"")
    }
}
