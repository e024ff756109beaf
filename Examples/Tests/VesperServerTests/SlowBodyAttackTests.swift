import Foundation
import Testing

/// The slow-body attack against the built `vesper-server` in its own process: one address opens
/// more connections than the server's cap, each announcing a 10 MB body and then sending almost
/// nothing. The address keeps only its share of the connections, its slow bodies are cut off
/// after the grace, and meanwhile every normal call is answered within a second.
@Suite("Slow-body attack", .serialized)
struct SlowBodyAttackTests {
    @Test(.enabled(if: ServerProcess.executable != nil, "vesper-server was not built"))
    func fourHundredSlowBodiesFromOneAddressNeitherHoldTheServerNorDelayOthers() async throws {
        let server = try await ServerProcess.started([
            "--max-connections", "300", "--max-connections-per-address", "50", "--body-rate-grace", "2",
            "--minimum-body-rate", "1000",
        ])
        defer { server.stop() }
        let token = try await Self.signUp(port: server.port)

        // 1. 400 connections from 127.0.0.2, each a complete head for a 10 MB body and one byte.
        var attackers: [RawConnection] = []
        for _ in 0..<400 {
            let connection = try RawConnection(port: server.port, from: "127.0.0.2")
            try? connection.send(
                "POST /api/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nx-zumo-auth: \(token)\r\nContent-Length: 10000000\r\n\r\n[")
            attackers.append(connection)
        }

        // 2. Normal calls from another address are answered at once: in 1–60 ms each when this
        //    test runs alone; five seconds are allowed here, where the whole suite runs alongside
        //    on two cores (without the limits, four of five waited past 20 s).
        for _ in 0..<5 {
            let normal = try RawConnection(port: server.port)
            let started = ContinuousClock.now
            try normal.send("POST /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nx-zumo-auth: \(token)\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]")
            let answer = try #require(await normal.received(until: .now + .seconds(5)), "no answer within five seconds")
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            let elapsed = ContinuousClock.now - started
            print("SLOW-BODY ATTACK: a normal call answered in \(elapsed)")
            #expect(elapsed < .seconds(5))
        }

        // 3. Every attacking connection ends: 350 closed at once, 50 answered 408 after the grace.
        let deadline = ContinuousClock.now + .seconds(30)
        var answered408 = 0
        var closed = 0
        for connection in attackers {
            var first: [UInt8]?
            while let bytes = await connection.received(until: deadline) {
                if bytes.isEmpty { closed += 1; break }
                if first == nil { first = bytes }
            }
            if let first, String(decoding: first, as: UTF8.self).hasPrefix("HTTP/1.1 408") { answered408 += 1 }
        }
        #expect(closed == 400)
        #expect(answered408 == 50)
    }

    /// Creates an account over HTTP and returns its login token.
    static func signUp(port: Int) async throws -> String {
        let client = TestClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)/api/")))
        let credentials = TestClient.basic("attacker@example.com", "correct horse")
        #expect(try await client.send("POST", "createAccount", headers: credentials).status == 204)
        let login = try await client.send("POST", "login", headers: credentials, body: Data("{}".utf8))
        let object = try #require(try login.jsonObject() as? [String: Any])
        return try #require(object["token"] as? String)
    }
}
