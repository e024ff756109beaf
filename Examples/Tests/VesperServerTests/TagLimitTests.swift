import Foundation
import Testing

@testable import VesperServerKit

/// Tag names are at most 256 characters, in the tags endpoint and inside notes, as the client
/// limits them; longer is 400 and nothing is written.
@Suite("Tag-name length limit")
struct TagLimitTests {
    @Test func overLongTagNamesAre400AndWriteNothing() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let longest = String(repeating: "é", count: TagName.maximumLength)
            let tooLong = longest + "x"
            #expect(try await env.client.post("tags", token: token, json: [["name": tooLong]]).status == 400)
            let note = wireNote(5001, extra: ["tags": "Home  \(tooLong)"])
            #expect(try await env.client.post("notes", token: token, json: [note]).status == 400)
            #expect(try env.databaseRows("SELECT count(*) FROM tags") == [[0]])
            #expect(try env.databaseRows("SELECT count(*) FROM notes") == [[0]])

            #expect(try await env.client.post("tags", token: token, json: [["name": longest]]).status == 200)
            #expect(try await env.client.post("notes", token: token, json: [wireNote(5002, extra: ["tags": longest])]).status == 200)
        }
    }
}
