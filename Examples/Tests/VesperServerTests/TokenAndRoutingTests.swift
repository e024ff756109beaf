import ExampleTestSupport
import Foundation
import Testing

@testable import VesperServerKit

@Suite("Login tokens, routing and headers")
struct TokenAndRoutingTests {
    @Test(arguments: Engine.available) func userLevelEndpointsNeedAValidToken(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            #expect(try await env.client.send("POST", "notes", body: Data("[]".utf8)).status == 401)
            #expect(try await env.client.post("notes", token: "garbage", json: []).status == 401)
            // Forged: a valid token's payload with another user ID, or re-signed with another key.
            let parts = token.split(separator: ".").map(String.init)
            let forgedPayload = Data(#"{"uid":2,"ver":1,"exp":9999999999}"#.utf8).base64URLEncoded
            #expect(try await env.client.post("notes", token: "\(parts[0]).\(forgedPayload).\(parts[2])", json: []).status == 401)
            let otherKey = ServerKeys(secret: "another secret").loginTokens
            let resigned = LoginToken(userID: 1, credentialVersion: 1, expiry: 9_999_999_999).signed(with: otherKey)
            #expect(try await env.client.post("notes", token: resigned, json: []).status == 401)
            #expect(try await env.client.post("tags", token: token, json: []).status == 200)
        }
    }

    @Test(arguments: Engine.available) func expiredTokensAre401(engine: Engine) async throws {
        let clock = TestClock(start: Date())
        try await TestEnvironment.with(engine, { $0.now = { clock.date } }) { env in
            let token = try await env.signUp()
            clock.advance(86_399)
            #expect(try await env.client.post("tags", token: token, json: []).status == 200)
            clock.advance(1)
            #expect(try await env.client.post("tags", token: token, json: []).status == 401)
            #expect(try await env.client.send("GET", "emailupdates", headers: TestClient.auth(token)).status == 401)
        }
    }

    @Test(arguments: Engine.available) func endpointNamesMatchWithoutRegardToCaseAndRepeatedSlashesCollapse(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            for path in ["deletedNotes", "DELETEDNOTES", "deletednotes", "/api//deletedNotes", "//api///DeletedNotes"] {
                let response = try await env.client.post(path, token: token, json: [])
                #expect(response.status == 200, "\(path)")
            }
        }
    }

    @Test(arguments: Engine.available) func unknownEndpointsAre404AndWrongMethodsAre405(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            #expect(try await env.client.send("GET", "nosuchthing").status == 404)
            #expect(try await env.client.send("GET", "/").status == 404)
            #expect(try await env.client.send("GET", "blobs/nosuchoperation", headers: TestClient.auth(token)).status == 404)
            #expect(try await env.client.send("GET", "blobs/LIST", headers: TestClient.auth(token)).status == 404)
            let wrongMethod = try await env.client.send("GET", "notes", headers: TestClient.auth(token))
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "POST")
            // Operator endpoints of the original are not exposed.
            for name in ["accountinfo", "foldername", "stats", "changepassword", "verifyemail"] {
                #expect(try await env.client.send("POST", name).status == 404)
            }
        }
    }

    @Test(arguments: Engine.available) func everyResponseCarriesAnRFC1123DateHeader(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let response = try await env.client.send("GET", "nosuchthing")
            let date = try #require(response.header("Date"))
            #expect(date.range(of: #"^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$"#, options: .regularExpression) != nil, "\(date)")
        }
    }

    @Test func loginTokensRoundTripAndRejectTampering() {
        let key = ServerKeys(secret: "s").loginTokens
        let token = LoginToken(userID: 42, credentialVersion: 3, expiry: 2_000_000_000)
        let signed = token.signed(with: key)
        #expect(LoginToken.verified(signed, key: key) == token)
        #expect(LoginToken.verified(signed + "x", key: key) == nil)
        #expect(LoginToken.verified(signed, key: ServerKeys(secret: "t").loginTokens) == nil)
        #expect(LoginToken.verified("a.b", key: key) == nil)
    }
}
