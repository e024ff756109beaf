import Foundation
import Testing

@testable import VesperServerKit

/// A note's `attachments` must be base64 of a JSON array of attachment objects with valid IDs,
/// MIME types and sizes; anything else is 400 and nothing is written, so a hostile device can't
/// relay a path to the account's other devices.
@Suite("Attachment metadata is validated before it is stored")
struct AttachmentValidationTests {
    static func base64(_ json: String) -> String { Data(json.utf8).base64EncodedString() }

    static let validAttachment = #"{"uniqueID":"6F9619FF-8B86-4D01-B42D-00C04FC964FF","mimeType":"image/jpeg","width":3264,"height":2448}"#

    @Test func badAttachmentListsAre400AndWriteNothing() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let badLists = [
                #"{"uniqueID":"A","mimeType":"image/png"}"#,                      // not an array
                #"["A"]"#, "[1]", "[null]", "not json",
                #"[{"mimeType":"image/png"}]"#,                                   // no uniqueID
                #"[{"uniqueID":"../../victim/important.txt","mimeType":"image/png"}]"#,
                #"[{"uniqueID":"..","mimeType":"image/png"}]"#,
                #"[{"uniqueID":".","mimeType":"image/png"}]"#,
                #"[{"uniqueID":"a/b","mimeType":"image/png"}]"#,
                #"[{"uniqueID":"/etc/passwd","mimeType":"image/png"}]"#,
                #"[{"uniqueID":"","mimeType":"image/png"}]"#,
                #"[{"uniqueID":"\#(String(repeating: "A", count: 81))","mimeType":"image/png"}]"#,
                #"[{"uniqueID":"A","mimeType":"png"}]"#,
                #"[{"uniqueID":"A","mimeType":"image/png; x=../y"}]"#,
                #"[{"uniqueID":"A","mimeType":"image/png","width":-1}]"#,
                #"[{"uniqueID":"A","mimeType":"image/png","height":"10"}]"#,
                "[" + Array(repeating: #"{"uniqueID":"A","mimeType":"image/png"}"#, count: 101).joined(separator: ",") + "]",
            ]
            for list in badLists {
                let notes: [[String: Any]] = [
                    wireNote(5001, text: "good"), ["noteID": 5002, "text": "evil", "attachments": Self.base64(list)],
                ]
                let response = try await env.client.post("notes", token: token, json: notes)
                #expect(response.status == 400, "\(list.prefix(60)) → \(response.status) \(response.text)")
            }
            #expect(try env.databaseRows("SELECT count(*) FROM notes") == [[0]])
        }
    }

    @Test func aValidListIsStoredAndServedBack() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let list = "[\(Self.validAttachment),{\"uniqueID\":\"6F9619FF-8B86-4D01-B42D-00C04FC964FF-low\",\"mimeType\":\"image/jpeg\",\"width\":null}]"
            let note: [String: Any] = ["noteID": 5001, "text": "picture", "attachments": Self.base64(list)]
            let response = try await env.client.post("notes", token: token, json: [note])
            #expect(response.status == 200)
            let served = try response.jsonArray().first?["attachments"] as? String
            #expect(served.flatMap { Data(base64Encoded: $0) } == Data(list.utf8))
        }
    }
}
