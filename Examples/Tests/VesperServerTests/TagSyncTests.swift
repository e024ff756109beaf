import Foundation
import Testing

@testable import VesperServerKit

@Suite("Tags")
struct TagSyncTests {
    @Test func firstUploadIsStoredAndAnswers200WithAnEmptyArray() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let response = try await env.client.post(
                "tags", token: token,
                json: [["uniqueID": "paris", "name": "Paris", "nameModificationDate": "2014-06-10T09:00:00.000-07:00"]])
            #expect(response.status == 200)
            #expect(try response.jsonArray().isEmpty)
            let all = try await env.client.post("tags", token: token, json: [])
            #expect(try all.jsonArray().map { $0 as NSDictionary } == [
                ["uniqueID": "paris", "name": "Paris", "nameModificationDate": "2014-06-10T16:00:00.000Z"]
            ])
        }
    }

    @Test func mergeReturnsNewerServerTagsAndTagsTheClientLacksAndTakesNewerClientNames() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            _ = try await env.client.post(
                "tags", token: token,
                json: [
                    ["uniqueID": "paris", "name": "paris", "nameModificationDate": "2014-06-12T08:00:00.000Z"],
                    ["uniqueID": "work", "name": "Work", "nameModificationDate": "2014-05-30T17:00:00.000Z"],
                    ["uniqueID": "home", "name": "home", "nameModificationDate": "2014-05-30T17:00:00.000Z"],
                ])
            let response = try await env.client.post(
                "tags", token: token,
                json: [
                    // Older than the server's: the server's comes back.
                    ["uniqueID": "paris", "name": "Paris", "nameModificationDate": "2014-06-10T09:00:00.000-07:00"],
                    // Newer: the client wins, not echoed.
                    ["uniqueID": "home", "name": "Home", "nameModificationDate": "2014-06-01T00:00:00.000Z"],
                ])
            #expect(response.status == 200)
            #expect(try response.jsonArray().map { $0 as NSDictionary } == [
                ["uniqueID": "paris", "name": "paris", "nameModificationDate": "2014-06-12T08:00:00.000Z"],
                ["uniqueID": "work", "name": "Work", "nameModificationDate": "2014-05-30T17:00:00.000Z"],
            ])
            let stored = try env.databaseRows("SELECT name FROM tags WHERE uniqueID = 'home'")
            #expect(stored.first?.first == .text("Home"))
        }
    }

    @Test func uniqueIDsAreRecomputedFromNamesAndNamelessTagsSkipped() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            _ = try await env.client.post(
                "tags", token: token,
                json: [
                    ["uniqueID": "bogus", "name": "  Road\tTrip  ", "nameModificationDate": "2014-06-10T09:00:00.000Z"],
                    ["uniqueID": "empty", "name": "   "],
                    ["uniqueID": "missing"],
                ])
            let rows = try env.databaseRows("SELECT uniqueID, name FROM tags")
            #expect(rows == [[.text("road trip"), .text("Road Trip")]])
        }
    }

    @Test func tagNormalizationMatchesTheClientVectors() {
        #expect(TagName.normalized("  Road\tTrip  ") == "Road Trip")
        #expect(TagName.normalized("  x\t  \ny foo\r") == "x y foo")
        #expect(TagName.uniqueID(forNormalizedName: TagName.normalized("ÉTÉ")) == "été")
        #expect(TagName.uniqueID(forNormalizedName: TagName.normalized("A\u{00A0}B")) == "a\u{00A0}b")
        #expect(TagName.normalized("   ").isEmpty)
    }

    @Test func tagMergeRules() {
        let stored = [
            SyncTag(uniqueID: "a", name: "A", nameModificationDate: 100),
            SyncTag(uniqueID: "b", name: "b", nameModificationDate: 100),
        ]
        let outcome = TagMerge.merge(
            uploaded: [
                SyncTag(uniqueID: "a", name: "a", nameModificationDate: 50),  // older: server wins
                SyncTag(uniqueID: "b", name: "B", nameModificationDate: 100),  // equal: nothing
                SyncTag(uniqueID: "c", name: "C", nameModificationDate: 1),  // new: insert
            ], stored: stored)
        #expect(outcome.writes == [SyncTag(uniqueID: "c", name: "C", nameModificationDate: 1)])
        #expect(outcome.response == [stored[0]])
    }
}
