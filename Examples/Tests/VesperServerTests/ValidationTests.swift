import Foundation
import Testing

@testable import VesperServerKit

@Suite("Malformed and oversized input")
struct ValidationTests {
    @Test func malformedOrWronglyShapedBodiesAre400AndWriteNothing() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let badNotes = [
                "{", "not json", #"{"noteID":5}"#, "[1,2]", #"[{"text":"no id"}]"#, #"[{"noteID":"5000"}]"#,
                #"[{"noteID":5000.5}]"#, #"[{"noteID":-5}]"#, #"[{"noteID":9007199254740993}]"#,
                #"[{"noteID":5000,"text":12}]"#, #"[{"noteID":5000,"creationDate":"not a date"}]"#,
                #"[{"noteID":5000,"attachments":"%%%not base64"}]"#, #"[{"noteID":5000,"tags":["a"]}]"#,
                #"[{"noteID":5000,"archived":"yes"}]"#,
                // One good note before a bad one: nothing at all is written.
                #"[{"noteID":5001,"text":"good"},{"noteID":5002,"creationDate":12}]"#,
            ]
            for body in badNotes {
                let response = try await env.client.send(
                    "POST", "notes", headers: TestClient.auth(token), body: Data(body.utf8))
                #expect(response.status == 400, "\(body) → \(response.status) \(response.text)")
            }
            for body in ["{", #"{"uniqueID":"a"}"#, #"[{"name":5}]"#, "[1]"] {
                let response = try await env.client.send(
                    "POST", "tags", headers: TestClient.auth(token), body: Data(body.utf8))
                #expect(response.status == 400, "tags \(body)")
            }
            #expect(try env.databaseRows("SELECT count(*) FROM notes") == [[0]])
            #expect(try env.databaseRows("SELECT count(*) FROM tags") == [[0]])
        }
    }

    @Test func oversizedBodiesAre413AndWriteNothing() async throws {
        try await TestEnvironment.with({ $0.maxBodyBytes = 4096 }) { env in
            let token = try await env.signUp()
            let notes = (0..<100).map { wireNote(10_000 + Int64($0), text: String(repeating: "x", count: 100)) }
            let response = try await env.client.post("notes", token: token, json: notes)
            #expect(response.status == 413)
            #expect(try env.databaseRows("SELECT count(*) FROM notes") == [[0]])
            // Just under the limit is fine.
            #expect(try await env.client.post("notes", token: token, json: [wireNote(10_000)]).status == 200)
        }
    }

    @Test func hostileInputNeverProducesA500() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let bodies = [
                "", "null", "true", "0", "\"string\"", "[null]", "[[]]", "[{}]", String(repeating: "[", count: 10_000),
                #"[{"noteID":1e400}]"#, "\u{0}", "[\"\u{FFFD}\"]",
            ]
            for name in ["notes", "tags", "deletedNotes", "emailupdates", "changepasswordauthenticated", "forgotpassword"] {
                for body in bodies {
                    let response = try await env.client.send(
                        "POST", name, headers: TestClient.auth(token), body: Data(body.utf8))
                    #expect(response.status < 500, "\(name) \(body.prefix(20)) → \(response.status)")
                }
            }
            for header in ["", "Basic", "Basic " + String(repeating: "A", count: 5000), "Basic Og=="] {
                #expect(try await env.client.send("POST", "login", headers: ["Authorization": header]).status < 500)
                #expect(try await env.client.send("POST", "createAccount", headers: ["Authorization": header]).status < 500)
            }
        }
    }
}
