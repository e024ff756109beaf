import Foundation
import Testing

@testable import VesperServerKit

@Suite("Accounts")
struct AccountTests {
    @Test(arguments: Engine.available) func createAccountAnswers204ThenLoginReturnsTokenAndEmailUpdates(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let created = try await env.client.send(
                "POST", "createAccount", headers: TestClient.basic("Alice@Example.com", "correct horse"),
                body: Data(#"{"emailUpdates":true}"#.utf8))
            #expect(created.status == 204)
            #expect(created.body.isEmpty)
            // The username was lower-cased: logging in with either case works.
            let login = try await env.client.send(
                "POST", "login", headers: TestClient.basic("alice@example.com", "correct horse"), body: Data("{}".utf8))
            #expect(login.status == 200)
            #expect(login.header("Content-Type") == "application/json; charset=utf-8")
            let object = try #require(try login.jsonObject() as? [String: Any])
            #expect((object["token"] as? String)?.isEmpty == false)
            #expect(object["emailUpdates"] as? Bool == true)
        }
    }

    @Test(arguments: Engine.available) func createAccountRejectsInvalidUsernamesAndPasswordsWithTheProtocolConstants(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            for username in ["abc", "no-at-sign.com", "no-dot@example", "has space@example.com", String(repeating: "a", count: 140) + "@example.com"] {
                let response = try await env.client.send(
                    "POST", "createAccount", headers: TestClient.basic(username, "correct horse"))
                #expect(response.status == 400)
                #expect(response.text == "VSErrorInvalidUsername", "\(username)")
            }
            for password in ["", "short", String(repeating: "p", count: 100)] {
                let response = try await env.client.send(
                    "POST", "createAccount", headers: TestClient.basic("bob@example.com", password))
                #expect(response.status == 400)
                #expect(response.text == "VSErrorInvalidPassword")
            }
            // A password may contain colons: only the first one splits.
            let colons = try await env.client.send(
                "POST", "createAccount", headers: TestClient.basic("carol@example.com", "pass:word:123"))
            #expect(colons.status == 204)
            _ = try await env.logIn("carol@example.com", password: "pass:word:123")
        }
    }

    @Test(arguments: Engine.available) func createAccountWithATakenUsernameIn400UsernameAlreadyExists(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            _ = try await env.signUp()
            let again = try await env.client.send(
                "POST", "createAccount", headers: TestClient.basic("ALICE@example.com", "another password"))
            #expect(again.status == 400)
            #expect(again.text == "VSErrorUsernameAlreadyExists")
            #expect(try await env.databaseRows("SELECT count(*) FROM accounts") == [[1]])
        }
    }

    @Test(arguments: Engine.available) func createAccountWithoutUsableAuthorizationIs400(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { (env: TestEnvironment) async throws in
            #expect(try await env.client.send("POST", "createAccount").status == 400)
            #expect(try await env.client.send("POST", "createAccount", headers: ["Authorization": "Basic !!!"]).status == 400)
            #expect(try await env.client.send("POST", "createAccount", headers: ["Authorization": "Bearer abc"]).status == 400)
        }
    }

    @Test(arguments: Engine.available) func passwordsAreStoredAsSaltedBcryptNeverInPlainText(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            _ = try await env.signUp()
            let row = try #require(try await env.databaseRows("SELECT passwordHash, passwordAlgorithm FROM accounts").first)
            guard case .text(let hash) = row[0], case .text(let algorithm) = row[1] else {
                Issue.record("unexpected row \(row)")
                return
            }
            #expect(hash.hasPrefix("$2"))
            #expect(!hash.contains("correct horse"))
            #expect(algorithm == "bcrypt-sha256")
        }
    }

    @Test(arguments: Engine.available) func loginFailuresAre400ForEmptyAnd401ForWrongCredentials(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            _ = try await env.signUp()
            let wrong = try await env.client.send(
                "POST", "login", headers: TestClient.basic("alice@example.com", "wrong password"), body: Data("{}".utf8))
            #expect(wrong.status == 401)
            let unknown = try await env.client.send(
                "POST", "login", headers: TestClient.basic("nobody@example.com", "correct horse"), body: Data("{}".utf8))
            #expect(unknown.status == 401)
            let empty = try await env.client.send(
                "POST", "login", headers: TestClient.basic("alice@example.com", ""), body: Data("{}".utf8))
            #expect(empty.status == 400)
            #expect(try await env.client.send("POST", "login").status == 400)
        }
    }

    @Test(arguments: Engine.available) func loginIsThrottledAfterTooManyFailuresWith429AndRetryAfter(engine: Engine) async throws {
        try await TestEnvironment.with(engine, { $0.loginAttemptsPerMinute = 3 }) { env in
            _ = try await env.signUp()
            for _ in 0..<3 {
                let response = try await env.client.send(
                    "POST", "login", headers: TestClient.basic("alice@example.com", "wrong password"))
                #expect(response.status == 401)
            }
            // Even the right password is refused while throttled: the password isn't even checked.
            let throttled = try await env.client.send(
                "POST", "login", headers: TestClient.basic("alice@example.com", "correct horse"))
            #expect(throttled.status == 429)
            let retryAfter = try #require(throttled.header("Retry-After").flatMap { Int($0) })
            #expect((1...61).contains(retryAfter))
            // Another account from the same address is not: its failures are counted apart.
            let other = try await env.client.send(
                "POST", "login", headers: TestClient.basic("bob@example.com", "whatever1"))
            #expect(other.status == 401)
        }
    }

    @Test(arguments: Engine.available)
    func anAttackerElsewhereCannotLockAUserOutButAnAddressHasAWiderBudget(engine: Engine) async throws {
        let store = try await TestStore.make(engine)
        defer { Task { await store.remove() } }
        try await store.withStorage { storage in
            let throttle = LoginThrottle(attemptsPerMinute: 3, store: storage, clock: .system)
            let attacker = ThrottlePolicy.login(username: "alice@example.com", address: "203.0.113.66", perMinute: 3)
            let alice = ThrottlePolicy.login(username: "alice@example.com", address: "192.0.2.1", perMinute: 3)
            for _ in 0..<3 { try await throttle.recordFailure(keys: attacker) }
            #expect(try await throttle.retryAfter(keys: attacker) != nil)
            #expect(try await throttle.retryAfter(keys: alice) == nil)
            // Spraying usernames from one address meets the address's budget: ten times the per-account one.
            for index in 0..<27 {
                let keys = ThrottlePolicy.login(username: "user\(index)@example.com", address: "203.0.113.66", perMinute: 3)
                #expect(try await throttle.retryAfter(keys: keys) == nil)
                try await throttle.recordFailure(keys: keys)
            }
            let next = ThrottlePolicy.login(username: "carol@example.com", address: "203.0.113.66", perMinute: 3)
            #expect(try await throttle.retryAfter(keys: next) != nil)
            #expect(try await throttle.retryAfter(keys: alice) == nil)
        }
    }

    @Test(arguments: Engine.available) func accountCreationIsThrottledPerAddress(engine: Engine) async throws {
        try await TestEnvironment.with(engine, { $0.loginAttemptsPerMinute = 3 }) { env in
            for index in 0..<3 {
                let created = try await env.client.send(
                    "POST", "createAccount", headers: TestClient.basic("user\(index)@example.com", "a long password"))
                #expect(created.status == 204)
            }
            let throttled = try await env.client.send(
                "POST", "createAccount", headers: TestClient.basic("user3@example.com", "a long password"))
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") != nil)
        }
    }

    @Test(arguments: Engine.available) func forgotPasswordAnswers204WhetherOrNotTheAccountExists(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            _ = try await env.signUp()
            let known = try await env.client.send(
                "POST", "forgotpassword", body: Data(#"{"username":"alice@example.com"}"#.utf8))
            #expect(known.status == 204)
            let unknown = try await env.client.send(
                "POST", "forgotpassword", body: Data(#"{"username":"nobody@example.com"}"#.utf8))
            #expect(unknown.status == 204)
            #expect(try await env.client.send("POST", "forgotpassword", body: Data("{}".utf8)).status == 400)
            #expect(try await env.client.send("POST", "forgotpassword", body: Data(#"{"username":5}"#.utf8)).status == 400)
            // Only the real account got a (hashed) reset token.
            #expect(try await env.databaseRows("SELECT count(*) FROM passwordResets") == [[1]])
        }
    }

    @Test(arguments: Engine.available) func changePasswordRevokesOldTokensAndTheNewPasswordLogsIn(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            let invalid = try await env.client.post("changepasswordauthenticated", token: token, json: ["password": "short"])
            #expect(invalid.status == 400)
            let wrongShape = try await env.client.post("changepasswordauthenticated", token: token, json: ["password": 12345678])
            #expect(wrongShape.status == 400)
            let changed = try await env.client.post(
                "changepasswordauthenticated", token: token, json: ["password": "a new password"])
            #expect(changed.status == 204)
            #expect(try await env.client.post("tags", token: token, json: []).status == 401)
            let newToken = try await env.logIn(password: "a new password")
            #expect(try await env.client.post("tags", token: newToken, json: []).status == 200)
            let old = try await env.client.send(
                "POST", "login", headers: TestClient.basic("alice@example.com", "correct horse"))
            #expect(old.status == 401)
        }
    }

    @Test(arguments: Engine.available) func emailUpdatesCanBeReadAndSetAndRejectsNonBooleans(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            let initial = try await env.client.send("GET", "emailupdates", headers: TestClient.auth(token))
            #expect(initial.status == 200)
            #expect((try initial.jsonObject() as? [String: Any])?["emailUpdates"] as? Bool == false)
            #expect(try await env.client.post("emailupdates", token: token, json: ["emailUpdates": true]).status == 204)
            let after = try await env.client.send("GET", "emailupdates", headers: TestClient.auth(token))
            #expect((try after.jsonObject() as? [String: Any])?["emailUpdates"] as? Bool == true)
            #expect(try await env.client.post("emailupdates", token: token, json: ["emailUpdates": "yes"]).status == 400)
            #expect(try await env.client.post("emailupdates", token: token, json: [:] as [String: Any]).status == 400)
            #expect(try await env.client.send("GET", "emailupdates").status == 401)
        }
    }
}
