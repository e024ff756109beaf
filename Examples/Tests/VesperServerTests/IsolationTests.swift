import Foundation
import Testing

@testable import VesperServerKit

@Suite("Per-user isolation")
struct IsolationTests {
    @Test func twoUsersCanHoldTheSameNoteIDWithoutSeeingOrTouchingEachOther() async throws {
        try await TestEnvironment.with { env in
            let alice = try await env.signUp("alice@example.com")
            let bob = try await env.signUp("bob@example.com")
            _ = try await env.client.post("notes", token: alice, json: [wireNote(8000, text: "alice's")])
            let bobs = try await env.client.post(
                "notes", token: bob, json: [wireNote(8000, text: "bob's", textDate: "2020-01-01T00:00:00.000Z")])
            #expect(try bobs.jsonArray().map { $0["text"] as? String } == ["bob's"])
            // Bob deletes his 8000: Alice's survives and she never hears of the tombstone.
            _ = try await env.client.post("deletedNotes", token: bob, json: [8000])
            let alices = try await env.client.post("notes", token: alice, json: [])
            #expect(try alices.jsonArray().map { $0["text"] as? String } == ["alice's"])
            let aliceTombstones = try await env.client.post("deletedNotes", token: alice, json: [])
            #expect(try aliceTombstones.jsonObject() as? [Int64] == [])
            // Bob's own notes call no longer returns the deleted note.
            #expect(try await env.client.post("notes", token: bob, json: []).status == 204)
        }
    }

    @Test func tagsAndBlobsArePerUser() async throws {
        try await TestEnvironment.with { env in
            let alice = try await env.signUp("alice@example.com")
            let bob = try await env.signUp("bob@example.com")
            _ = try await env.client.post("tags", token: alice, json: [["uniqueID": "x", "name": "Secret"]])
            #expect(try await env.client.post("tags", token: bob, json: []).jsonArray().isEmpty)
            let bytes = Data("alice's picture".utf8)
            try await BlobTests.upload(bytes, name: "ABC-1", token: alice, env: env)
            let bobList = try await env.client.send("GET", "blobs/list", headers: TestClient.auth(bob))
            #expect(try bobList.jsonArray().isEmpty)
            let bobDownload = try await env.client.send(
                "GET", "blobs/download?filename=ABC-1", headers: TestClient.auth(bob))
            #expect(bobDownload.status == 404)
            let bobDelete = try await env.client.send("DELETE", "/api/blobs/ABC-1", headers: TestClient.auth(bob))
            #expect(bobDelete.status == 404)
            #expect(try await env.client.send("GET", "blobs/list", headers: TestClient.auth(alice)).jsonArray().count == 1)
        }
    }

    @Test func aSyncTokenFromAnotherUserCountsAsAbsent() async throws {
        try await TestEnvironment.with { env in
            let alice = try await env.signUp("alice@example.com")
            let bob = try await env.signUp("bob@example.com")
            _ = try await env.client.post("notes", token: bob, json: [wireNote(8100)])
            let alicesToken = try #require(
                try await env.client.post("notes", token: alice, json: []).header("x-vesper-synctoken"))
            // Bob (after a sign-out/sign-in mix-up in the client) presents Alice's token: he gets everything.
            let response = try await env.client.post(
                "notes", token: bob, json: [], headers: ["x-vesper-synctoken": alicesToken])
            #expect(try response.jsonArray().count == 1)
        }
    }
}
