import Foundation
import Testing

@testable import VesperServerKit

/// One request can't hold the database for long: the number of notes and of deleted-note IDs
/// a request may upload is bounded, and a request over the bound writes nothing.
@Suite("Per-request element limits")
struct RequestSizeLimitTests {
    @Test(arguments: Engine.available) func moreNotesThanTheLimitAre413AndWriteNothing(engine: Engine) async throws {
        try await TestEnvironment.with(engine, { $0.maxNotesPerRequest = 3 }) { env in
            let token = try await env.signUp()
            let four = (5_000..<5_004).map { wireNote(Int64($0)) }
            let refused = try await env.client.post("notes", token: token, json: four)
            #expect(refused.status == 413)
            #expect(refused.text == "at most 3 notes per request")
            #expect(try await env.databaseRows("SELECT count(*) FROM notes") == [[0]])
            let three = (5_000..<5_003).map { wireNote(Int64($0)) }
            #expect(try await env.client.post("notes", token: token, json: three).status == 200)
            #expect(try await env.databaseRows("SELECT count(*) FROM notes") == [[3]])
        }
    }

    @Test(arguments: Engine.available) func moreDeletedNoteIDsThanTheLimitAre413AndWriteNothing(engine: Engine) async throws {
        try await TestEnvironment.with(engine, { $0.maxDeletedNotesPerRequest = 5 }) { env in
            let token = try await env.signUp()
            let refused = try await env.client.post("deletedNotes", token: token, json: Array(5_000..<5_006))
            #expect(refused.status == 413)
            #expect(refused.text == "at most 5 deleted note IDs per request")
            #expect(try await env.databaseRows("SELECT count(*) FROM deletedNotes") == [[0]])
            #expect(try await env.client.post("deletedNotes", token: token, json: Array(5_000..<5_005)).status == 200)
            #expect(try await env.databaseRows("SELECT count(*) FROM deletedNotes") == [[5]])
        }
    }

    @Test func theDefaultsAreAThousandNotesAndTenThousandDeletedNoteIDs() {
        let defaults = VesperServerConfiguration(database: .sqlite(path: "db"), attachmentsPath: "a")
        #expect(defaults.maxNotesPerRequest == 1_000)
        #expect(defaults.maxDeletedNotesPerRequest == 10_000)
    }
}
