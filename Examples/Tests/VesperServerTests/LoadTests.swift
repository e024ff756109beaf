import Foundation
import Testing

@testable import VesperServerKit

@Suite("Load")
struct LoadTests {
    @Test(arguments: Engine.available) func fiftyConcurrentClientsSyncingAHundredNotesEachLoseNothing(engine: Engine) async throws {
        // Fifty accounts from one address in a minute: more than account creation allows by default.
        try await TestEnvironment.with(engine, { $0.loginAttemptsPerMinute = 1_000 }) { env in
            let clients = 50
            let notesPerClient = 100
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<clients {
                    group.addTask {
                        let token = try await env.signUp("user\(client)@example.com", password: "password \(client)")
                        let notes = (0..<notesPerClient).map { wireNote(Int64(1000 + $0), text: "client \(client) note \($0)") }
                        let first = try await env.client.post("notes", token: token, json: notes)
                        #expect(first.status == 200)
                        #expect(try first.jsonArray().count == notesPerClient)
                        // A second, incremental round with the token, as a real client would.
                        let syncToken = try #require(first.header("x-vesper-synctoken"))
                        let second = try await env.client.post(
                            "notes", token: token, json: [], headers: ["x-vesper-synctoken": syncToken])
                        #expect(second.status == 200)  // within the 10-minute overlap
                        let texts = Set(try second.jsonArray().compactMap { $0["text"] as? String })
                        #expect(texts == Set((0..<notesPerClient).map { "client \(client) note \($0)" }))
                    }
                }
                try await group.waitForAll()
            }
            let elapsed = ContinuousClock.now - start
            print("LOAD: \(clients) concurrent clients × \(notesPerClient) notes (sign-up, login, 2 syncs each): \(elapsed)")
            #expect(try await env.databaseRows("SELECT count(*) FROM notes") == [[.integer(Int64(clients * notesPerClient))]])
            #expect(try await env.databaseRows("SELECT count(DISTINCT userID) FROM notes") == [[.integer(Int64(clients))]])
        }
    }

    /// Not a timed assertion (performance is measured, not asserted); prints the number. Ten
    /// requests of 1,000 notes, the most one request takes, as the client sends them.
    @Test(arguments: Engine.available) func firstSyncOfTenThousandNotes(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            let notes = (0..<10_000).map { index in
                wireNote(
                    Int64(100_000 + index), text: "Note \(index): " + String(repeating: "lorem ipsum ", count: 20),
                    extra: ["tags": "Work  Home", "tagsModificationDate": "2014-06-12T16:41:10.250-07:00"])
            }
            var sent = 0
            var last: TestResponse?
            let start = ContinuousClock.now
            for batch in stride(from: 0, to: notes.count, by: 1_000) {
                let body = try JSONSerialization.data(withJSONObject: Array(notes[batch..<batch + 1_000]))
                sent += body.count
                last = try await env.client.send("POST", "notes", headers: TestClient.auth(token), body: body)
                #expect(last?.status == 200)
            }
            let elapsed = ContinuousClock.now - start
            let response = try #require(last)
            #expect(try response.jsonArray().count == 10_000)
            print("FIRST SYNC: 10,000 notes in 10 requests, \(sent / 1024) KB up, \(response.body.count / 1024) KB down in the last: \(elapsed)")
        }
    }
}
