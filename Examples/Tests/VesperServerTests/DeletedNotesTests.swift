import Foundation
import Testing

@testable import VesperServerKit

@Suite("Deleted notes")
struct DeletedNotesTests {
    @Test func responseListsOnlyTombstonesThatExistedBeforeTheCall() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let first = try await env.client.post("deletedNotes", token: token, json: [3_370_123_456_789_012, 12])
            #expect(first.status == 200)
            #expect(first.header("Content-Type") == "application/json; charset=utf-8")
            #expect(try first.jsonObject() as? [Int64] == [])
            #expect(first.header("x-vesper-synctoken") != nil)
            let second = try await env.client.post("deletedNotes", token: token, json: [])
            #expect(Set(try #require(try second.jsonObject() as? [Int64])) == [3_370_123_456_789_012, 12])
        }
    }

    @Test func tombstonesAreUniquePerUserAndDeleteTheNoteInTheSameCall() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            _ = try await env.client.post("notes", token: token, json: [wireNote(5000), wireNote(5001)])
            let response = try await env.client.post("deletedNotes", token: token, json: [5000, 5000, 5000])
            #expect(response.status == 200)
            _ = try await env.client.post("deletedNotes", token: token, json: [5000])
            #expect(try env.databaseRows("SELECT noteID FROM deletedNotes") == [[.integer(5000)]])
            #expect(try env.databaseRows("SELECT noteID FROM notes") == [[.integer(5001)]])
        }
    }

    @Test func aTokenLimitsTheResponseToLaterTombstonesWithoutOverlap() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            _ = try await env.client.post("deletedNotes", token: token, json: [1001])
            let withToken = try await env.client.post("deletedNotes", token: token, json: [])
            let syncToken = try #require(withToken.header("x-vesper-synctoken"))
            _ = try await env.client.post("deletedNotes", token: token, json: [1002])
            let later = try await env.client.post(
                "deletedNotes", token: token, json: [], headers: ["x-vesper-synctoken": syncToken])
            #expect(try later.jsonObject() as? [Int64] == [1002])
        }
    }

    @Test func tutorialIDsAreAcceptedAndNonIntegersRejectedWithNothingWritten() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            #expect(try await env.client.post("deletedNotes", token: token, json: [0, 12, 999]).status == 200)
            for body in ["[1.5]", #"["12"]"#, "[-1]", "[9007199254740993]", #"{"a":1}"#, "[[1]]", "[1,null]", "[1,"] {
                let response = try await env.client.send(
                    "POST", "deletedNotes", headers: TestClient.auth(token), body: Data(body.utf8))
                #expect(response.status == 400, "\(body)")
            }
            #expect(try env.databaseRows("SELECT count(*) FROM deletedNotes") == [[.integer(3)]])
        }
    }

    @Test func aDeletedNoteIsNeverResurrectedByALateUpload() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            _ = try await env.client.post("deletedNotes", token: token, json: [7000])
            let upload = try await env.client.post("notes", token: token, json: [wireNote(7000), wireNote(7001)])
            let returned = try upload.jsonArray().compactMap { $0["noteID"] as? Int64 }
            #expect(returned == [7001])
            #expect(try env.databaseRows("SELECT noteID FROM notes") == [[.integer(7001)]])
        }
    }
}
