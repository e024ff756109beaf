import Foundation
import Testing

@testable import VesperServerKit

@Suite("The notes response body")
struct WireNotesResponseTests {
    /// Every key present, `null` for no value, strings escaped so that any text survives.
    @Test func everyNoteReadsBackAsWrittenWhateverItsText() throws {
        let awkward = "quote \" backslash \\ slash / newline \n return \r tab \t bell \u{07} nul \u{00} é 😀 \u{2028}"
        let notes = [
            SyncNote(
                noteID: 9_007_199_254_740_992, archived: true, text: awkward, creationDate: 1_402_616_669_099,
                sortDate: -1, textModificationDate: 0, tags: "Work  \"Home\"", attachments: Data("[]".utf8)),
            SyncNote(noteID: 1, creationDate: 0, sortDate: 0),
        ]
        let buffer = WireNotesResponse.body(notes)
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [[String: Any]])
        #expect(parsed.count == 2)
        #expect(parsed[0]["noteID"] as? Int64 == 9_007_199_254_740_992)
        #expect(parsed[0]["archived"] as? Bool == true)
        #expect(parsed[0]["text"] as? String == awkward)
        #expect(parsed[0]["creationDate"] as? String == "2014-06-12T23:44:29.099Z")
        #expect(parsed[0]["sortDate"] as? String == "1969-12-31T23:59:59.999Z")
        #expect(parsed[0]["textModificationDate"] as? String == "1970-01-01T00:00:00.000Z")
        #expect(parsed[0]["tags"] as? String == "Work  \"Home\"")
        #expect(parsed[0]["attachments"] as? String == Data("[]".utf8).base64EncodedString())
        let keys: Set<String> = [
            "noteID", "archived", "text", "creationDate", "sortDate", "textModificationDate", "archivedModificationDate",
            "sortDateModificationDate", "tagsModificationDate", "attachmentsModificationDate", "tags", "attachments",
        ]
        #expect(Set(parsed[1].keys) == keys)
        #expect(parsed[1]["archived"] as? Bool == false)
        for key in keys.subtracting(["noteID", "archived", "creationDate", "sortDate"]) {
            #expect(parsed[1][key] is NSNull, "\(key)")
        }
        #expect(String(decoding: buffer.readableBytesView, as: UTF8.self).contains(#"slash / newline \n"#))
    }

    @Test func noNotesIsAnEmptyArray() {
        #expect(String(decoding: WireNotesResponse.body([]).readableBytesView, as: UTF8.self) == "[]")
    }
}
