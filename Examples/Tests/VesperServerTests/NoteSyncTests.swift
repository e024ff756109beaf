import Foundation
import Testing

@testable import VesperServerKit

@Suite("Notes")
struct NoteSyncTests {
    @Test func uploadedNotesComeBackInTheWireFormatWithASyncToken() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let attachments = Data(
                #"[{"uniqueID":"6F9619FF-8B86-4D01-B42D-00C04FC964FF","mimeType":"image/jpeg","width":3264,"height":2448}]"#
                    .utf8
            ).base64EncodedString()
            let response = try await env.client.post(
                "notes", token: token,
                json: [
                    wireNote(
                        3_370_123_456_789_012, text: "Buy milk\nhttp://example.com",
                        extra: [
                            "tags": "Errands  Home", "tagsModificationDate": "2014-06-12T16:41:10.250-07:00",
                            "attachments": attachments,
                            "attachmentsModificationDate": "2014-06-12T16:42:00.5-07:00",
                        ])
                ])
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            let syncToken = try #require(response.header("x-vesper-synctoken"))
            let decoded = String(decoding: try #require(Data(base64Encoded: syncToken)), as: UTF8.self)
            #expect(decoded.hasPrefix("2:1:"))
            let note = try #require(try response.jsonArray().first)
            #expect(note as NSDictionary == [
                "noteID": 3_370_123_456_789_012, "archived": false, "text": "Buy milk\nhttp://example.com",
                "creationDate": "2014-06-12T23:40:00.000Z", "sortDate": "2014-06-12T23:40:00.000Z",
                "textModificationDate": "2014-06-12T23:44:29.099Z", "archivedModificationDate": NSNull(),
                "sortDateModificationDate": NSNull(), "tagsModificationDate": "2014-06-12T23:41:10.250Z",
                "attachmentsModificationDate": "2014-06-12T23:42:00.500Z", "tags": "Errands  Home",
                "attachments": attachments,
            ])
            // Note IDs are plain integer literals.
            #expect(response.text.contains(#""noteID":3370123456789012"#))
        }
    }

    @Test func nothingToReturnIs204WithASyncToken() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let empty = try await env.client.send("POST", "notes", headers: TestClient.auth(token))
            #expect(empty.status == 204)
            #expect(empty.body.isEmpty)
            #expect(empty.header("x-vesper-synctoken") != nil)
        }
    }

    @Test func eachPropertyMergesByItsOwnModificationDate() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            _ = try await env.client.post(
                "notes", token: token,
                json: [
                    wireNote(
                        4000, text: "server text", textDate: "2014-06-12T12:00:00.000Z",
                        extra: [
                            "archived": true, "archivedModificationDate": "2014-06-12T12:00:00.000Z",
                            "tags": "A  B", "tagsModificationDate": "2014-06-12T12:00:00.000Z",
                            "sortDate": "2014-06-01T00:00:00.000Z",
                            "sortDateModificationDate": "2014-06-12T12:00:00.000Z",
                        ])
                ])
            let response = try await env.client.post(
                "notes", token: token,
                json: [
                    wireNote(
                        4000, text: "older text", textDate: "2014-06-12T11:59:59.999Z",  // loses (older)
                        creationDate: "2015-01-01T00:00:00.000Z",  // creationDate is immutable
                        extra: [
                            "archived": false, "archivedModificationDate": "2014-06-12T12:00:00.001Z",  // wins by 1 ms
                            "tagsModificationDate": "2014-06-12T12:00:01.000Z",  // wins; tags absent → cleared
                            "sortDate": "2014-07-01T00:00:00.000Z",
                            "sortDateModificationDate": "2014-06-12T12:00:00.000Z",  // equal → no change
                        ])
                ])
            let note = try #require(try response.jsonArray().first)
            #expect(note["text"] as? String == "server text")
            #expect(note["textModificationDate"] as? String == "2014-06-12T12:00:00.000Z")
            #expect(note["archived"] as? Bool == false)
            #expect(note["archivedModificationDate"] as? String == "2014-06-12T12:00:00.001Z")
            #expect(note["tags"] is NSNull)
            #expect(note["tagsModificationDate"] as? String == "2014-06-12T12:00:01.000Z")
            #expect(note["sortDate"] as? String == "2014-06-01T00:00:00.000Z")
            #expect(note["creationDate"] as? String == "2014-06-12T23:40:00.000Z")
        }
    }

    @Test func anAbsentIncomingDateNeverWinsAndAnUnchangedNoteIsNotRewritten() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let first = try await env.client.post("notes", token: token, json: [wireNote(4100, text: "kept")])
            let syncToken = try #require(first.header("x-vesper-synctoken"))
            let before = try env.databaseRows("SELECT serverModificationDate FROM notes")
            let again = try await env.client.post(
                "notes", token: token, json: [wireNote(4100, text: "no date", textDate: nil)],
                headers: ["x-vesper-synctoken": syncToken])
            #expect(try again.jsonArray().first?["text"] as? String == "kept")
            #expect(try env.databaseRows("SELECT serverModificationDate FROM notes") == before)
        }
    }

    @Test func duplicateNoteIDsInOneBodyCoalesceInsteadOfFailing() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let response = try await env.client.post(
                "notes", token: token,
                json: [
                    wireNote(4200, text: "first", textDate: "2014-06-12T12:00:00.000Z"),
                    wireNote(4200, text: "second, newer", textDate: "2014-06-12T12:00:01.000Z"),
                    wireNote(4200, text: "third, older", textDate: "2014-06-12T11:00:00.000Z"),
                ])
            #expect(response.status == 200)
            let notes = try response.jsonArray()
            #expect(notes.count == 1)
            #expect(notes.first?["text"] as? String == "second, newer")
        }
    }

    @Test func aSyncTokenReturnsChangesSinceItsDateMinusTenMinutes() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            _ = try await env.client.post("notes", token: token, json: [wireNote(4300)])
            // A token from an hour ago sees the note; one from now still does (10-minute overlap);
            // one carrying a date 11 minutes after the write does not.
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            func response(at date: Int64) async throws -> TestResponse {
                try await env.client.post(
                    "notes", token: token, json: [],
                    headers: ["x-vesper-synctoken": Data("1:\(date)".utf8).base64EncodedString()])
            }
            #expect(try await response(at: now - 3_600_000).status == 200)
            #expect(try await response(at: now).status == 200)
            // A future date is clamped to now, so the overlap still returns the note.
            #expect(try await response(at: now + 11 * 60_000).status == 200)
            // Bound to this user: the same date in a v2 token for another user counts as absent (full download).
            let foreign = Data("2:999:\(now + 11 * 60_000)".utf8).base64EncodedString()
            let full = try await env.client.post("notes", token: token, json: [], headers: ["x-vesper-synctoken": foreign])
            #expect(full.status == 200)
        }
    }

    @Test func undecodableSyncTokensCountAsAbsent() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            _ = try await env.client.post("notes", token: token, json: [wireNote(4400)])
            for bad in ["%%%", Data("1:abc".utf8).base64EncodedString(), Data("7:1:2".utf8).base64EncodedString(), ""] {
                let response = try await env.client.post(
                    "notes", token: token, json: [], headers: ["x-vesper-synctoken": bad])
                #expect(response.status == 200, "\(bad)")
                #expect(try response.jsonArray().count == 1)
            }
        }
    }

    @Test func syncTokenDecoding() {
        #expect(SyncToken.date(from: "MToxNDAyNjE2NjY5MDk5", userID: 1) == 1_402_616_669_099)
        #expect(SyncToken.date(from: SyncToken.encode(userID: 5, date: 42), userID: 5) == 42)
        #expect(SyncToken.date(from: SyncToken.encode(userID: 5, date: 42), userID: 6) == nil)
        #expect(SyncToken.date(from: nil, userID: 1) == nil)
        #expect(SyncToken.date(from: Data("1:".utf8).base64EncodedString(), userID: 1) == nil)
    }

    @Test func noteMergePredicate() {
        #expect(NoteMerge.incomingWins(2, over: 1))
        #expect(!NoteMerge.incomingWins(1, over: 1))
        #expect(!NoteMerge.incomingWins(nil, over: nil))
        #expect(NoteMerge.incomingWins(1, over: nil))
    }

    @Test func missingDatesDefaultToTheOldDateAndUnparseableModificationDatesMeanNoValue() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let response = try await env.client.post(
                "notes", token: token,
                json: [["noteID": 4500, "text": "t", "textModificationDate": "yesterday", "archived": 1]])
            let note = try #require(try response.jsonArray().first)
            #expect(note["creationDate"] as? String == "2012-12-12T12:00:00.000Z")
            #expect(note["sortDate"] as? String == "2012-12-12T12:00:00.000Z")
            #expect(note["textModificationDate"] is NSNull)
            #expect(note["archived"] as? Bool == true)
        }
    }
}
