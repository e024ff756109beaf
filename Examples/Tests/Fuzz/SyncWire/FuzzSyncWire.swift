import Foundation
import VesperCore

/// libFuzzer's entry point for the sync client's wire decoding: the bytes are read as a
/// response body of each endpoint — notes, tags, deleted notes, a login token — and the
/// first line also as a date and a tag list. Anything may be refused; nothing may crash, and
/// every accepted note round-trips through its upload form.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncWire(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let json = try? VSJSON.parse(data) {
        for element in json.array ?? [json] {
            if let note = try? VSSyncNote(json: element) {
                for attachment in note.attachments where !VSAttachmentFile.isValidName(attachment.uniqueID) {
                    fatalError("accepted the attachment ID \(attachment.uniqueID)")
                }
                guard let upload = try? note.json(), (try? VSSyncNote(json: upload)) != nil else {
                    fatalError("note \(note.noteID) does not survive its own upload form")
                }
            }
            _ = try? VSSyncTag(json: element)
            _ = element.integer   // a deleted note ID
        }
        _ = json["token"]?.string
    }
    let line = String(decoding: data.prefix { $0 != 0x0A }, as: UTF8.self)
    _ = VSSyncDate.date(from: line)
    _ = VSSyncDate.date(fromHTTP: line)
    _ = VSSyncNote.tagNames(fromWire: line)
    return 0
}
