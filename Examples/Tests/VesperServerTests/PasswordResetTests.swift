import ExampleTestSupport
import Foundation
import Testing

@testable import VesperServerKit

@Suite("Password reset")
struct PasswordResetTests {
    /// Asks for a reset of `username` and returns the token from the link the server logged.
    static func requestReset(_ env: TestEnvironment, _ username: String = "alice@example.com") async throws -> String {
        let asked = try await env.client.send(
            "POST", "forgotpassword", body: Data(#"{"username":"\#(username)"}"#.utf8))
        #expect(asked.status == 204)
        let link = try #require(env.logs.entries("Password reset requested").last?.metadata["link"])
        let components = try #require(URLComponents(string: link))
        #expect(components.path == "/api/resetpassword")
        return try #require(components.queryItems?.first { $0.name == "token" }?.value)
    }

    static func reset(_ env: TestEnvironment, token: String, password: String) async throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: ["token": token, "password": password])
        return try await env.client.send("POST", "resetpassword", body: body)
    }

    @Test(arguments: Engine.available) func theLoggedLinkSetsANewPasswordOnceAndRevokesEveryLoginToken(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let oldToken = try await env.signUp()
            let resetToken = try await Self.requestReset(env)
            // The database keeps only the token's hash.
            let hash = PasswordResetToken.hash(resetToken).map { String(format: "%02X", $0) }.joined()
            let hexOfHash = env.engine == .sqlite ? "hex(tokenHash)" : "upper(encode(tokenHash, 'hex'))"
            #expect(try await env.databaseRows("SELECT count(*) FROM passwordResets WHERE \(hexOfHash) = '\(hash)'") == [[1]])
            #expect(try await env.databaseRows("SELECT count(*) FROM passwordResets") == [[1]])

            let reset = try await Self.reset(env, token: resetToken, password: "a brand new password")
            #expect(reset.status == 204)
            #expect(try await env.client.post("tags", token: oldToken, json: []).status == 401)
            let newToken = try await env.logIn(password: "a brand new password")
            #expect(try await env.client.post("tags", token: newToken, json: []).status == 200)
            let oldPassword = try await env.client.send(
                "POST", "login", headers: TestClient.basic("alice@example.com", "correct horse"), body: Data("{}".utf8))
            #expect(oldPassword.status == 401)

            // Single use: the same link is refused the second time and changes nothing.
            let again = try await Self.reset(env, token: resetToken, password: "yet another password")
            #expect(again.status == 403)
            _ = try await env.logIn(password: "a brand new password")
        }
    }

    @Test(arguments: Engine.available) func anExpiredLinkIsRefused(engine: Engine) async throws {
        let clock = TestClock(start: Date())
        try await TestEnvironment.with(engine, { $0.now = { clock.date } }) { env in
            _ = try await env.signUp()
            let resetToken = try await Self.requestReset(env)
            clock.advance(3_600)
            let reset = try await Self.reset(env, token: resetToken, password: "a brand new password")
            #expect(reset.status == 403)
            #expect(reset.text == "the reset link is unknown, used or expired")
            _ = try await env.logIn()
            #expect(try await env.databaseRows("SELECT count(*) FROM passwordResets") == [[0]])
        }
    }

    @Test(arguments: Engine.available) func anInvalidPasswordIsRefusedWithoutSpendingTheLink(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            _ = try await env.signUp()
            let resetToken = try await Self.requestReset(env)
            let short = try await Self.reset(env, token: resetToken, password: "short")
            #expect(short.status == 400)
            #expect(short.text == "VSErrorInvalidPassword")
            #expect(try await env.client.send("POST", "resetpassword", body: Data(#"{"token":"x"}"#.utf8)).status == 400)
            #expect(try await env.client.send("GET", "resetpassword").status == 405)
            let reset = try await Self.reset(env, token: resetToken, password: "a brand new password")
            #expect(reset.status == 204)
        }
    }

    @Test(arguments: Engine.available) func changingThePasswordSpendsOutstandingLinks(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let login = try await env.signUp()
            let first = try await Self.requestReset(env)
            let changed = try await env.client.post(
                "changepasswordauthenticated", token: login, json: ["password": "changed while signed in"])
            #expect(changed.status == 204)
            // Changing the password spends every outstanding reset link of the account.
            #expect(try await Self.reset(env, token: first, password: "a brand new password").status == 403)
            _ = try await env.logIn(password: "changed while signed in")
        }
    }

    @Test(arguments: Engine.available) func wrongTokensFromOneAddressAreThrottled(engine: Engine) async throws {
        try await TestEnvironment.with(engine, { $0.loginAttemptsPerMinute = 3 }) { env in
            _ = try await env.signUp()
            for attempt in 0..<3 {
                let wrong = try await Self.reset(env, token: "guess-\(attempt)", password: "a brand new password")
                #expect(wrong.status == 403)
            }
            let throttled = try await Self.reset(env, token: "guess-3", password: "a brand new password")
            #expect(throttled.status == 429)
            #expect(Int(throttled.header("Retry-After") ?? "") ?? 0 > 0)
        }
    }

    @Test(arguments: Engine.available)
    func resetRequestsFromElsewhereDoNotSpendTheOwnersBudgetButAnAddressHasACap(engine: Engine) async throws {
        let store = try await TestStore.make(engine)
        defer { Task { await store.remove() } }
        try await store.withStorage { storage in
            let throttle = LoginThrottle(attemptsPerMinute: 3, store: storage, clock: .system)
            let attacker = ThrottlePolicy.passwordReset(username: "alice@example.com", address: "203.0.113.66", perMinute: 3)
            let alice = ThrottlePolicy.passwordReset(username: "alice@example.com", address: "192.0.2.1", perMinute: 3)
            for _ in 0..<3 { try await throttle.recordFailure(keys: attacker) }
            #expect(try await throttle.retryAfter(keys: attacker) != nil)
            #expect(try await throttle.retryAfter(keys: alice) == nil)
            // Over all usernames one address may ask three times the per-account budget.
            for index in 0..<6 {
                let keys = ThrottlePolicy.passwordReset(username: "user\(index)@example.com", address: "203.0.113.66", perMinute: 3)
                #expect(try await throttle.retryAfter(keys: keys) == nil)
                try await throttle.recordFailure(keys: keys)
            }
            let next = ThrottlePolicy.passwordReset(username: "carol@example.com", address: "203.0.113.66", perMinute: 3)
            #expect(try await throttle.retryAfter(keys: next) != nil)
            #expect(try await throttle.retryAfter(keys: alice) == nil)
        }
    }

    @Test(arguments: Engine.available) func tooManyResetRequestsForOneAccountFromOneAddressAre429(engine: Engine) async throws {
        try await TestEnvironment.with(engine, { $0.loginAttemptsPerMinute = 2 }) { env in
            _ = try await env.signUp()
            let body = Data(#"{"username":"alice@example.com"}"#.utf8)
            for _ in 0..<2 { #expect(try await env.client.send("POST", "forgotpassword", body: body).status == 204) }
            let throttled = try await env.client.send("POST", "forgotpassword", body: body)
            #expect(throttled.status == 429)
            #expect(env.logs.entries("Password reset requested").count == 2)
        }
    }
}
