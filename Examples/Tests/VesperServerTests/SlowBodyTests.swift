import ExampleTestSupport
import Foundation
import Testing

@testable import VesperServerKit

/// Slow request bodies can't hold the server: a body that arrives slower than the minimum rate
/// (after its grace) or takes longer than the body timeout is answered 408 and its connection
/// closed, and one address can hold only its share of the connections. These servers are
/// in-process, where a busy test run can delay them, so waits are generous and only lower bounds
/// are timed; SlowBodyAttackTests times the answers of a server in its own process.
@Suite("Slow request bodies", .serialized)
struct SlowBodyTests {
    static let limits = ConnectionLimits(
        requestHeadTimeout: .seconds(5), idleTimeout: .seconds(30), maximumConnections: 1000, maximumConnectionsPerAddress: 100,
        requestBodyTimeout: .seconds(3), minimumBodyBytesPerSecond: 1_000, bodyRateGrace: .seconds(1))

    /// A signed-in POST to `api/notes` announcing `length` body bytes, with `start` of them.
    static func head(token: String, length: Int, start: String) -> String {
        "POST /api/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nx-zumo-auth: \(token)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(length)\r\n\r\n\(start)"
    }

    @Test func aBodyThatStopsArrivingIsAnswered408AfterTheGrace() async throws {
        try await TestEnvironment.with(.sqlite, { $0.connectionLimits = Self.limits }) { env in
            let token = try await env.signUp()
            let connection = try RawConnection(port: try #require(env.server.baseURL.port))
            let started = ContinuousClock.now
            try connection.send(Self.head(token: token, length: 10_000_000, start: "[{"))
            let answer = try #require(await connection.received(until: .now + .seconds(60)), "no answer")
            let elapsed = ContinuousClock.now - started
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
            #expect(text.hasSuffix("the request body arrived slower than 1000 bytes a second"), "\(text)")
            #expect(elapsed >= .seconds(1), "answered after \(elapsed), before the grace ended")
            #expect(await connection.closed(until: .now + .seconds(60)))
            #expect(env.logs.entries("Request body cut off").count == 1)
        }
    }

    @Test func aBodyThatKeepsTheRateButOutlastsTheBodyTimeoutIsAnswered408() async throws {
        try await TestEnvironment.with(.sqlite, { $0.connectionLimits = Self.limits }) { env in
            let token = try await env.signUp()
            let connection = try RawConnection(port: try #require(env.server.baseURL.port))
            try connection.send(Self.head(token: token, length: 10_000_000, start: "["))
            // 2,000 bytes every 200 ms: twice the minimum rate, for longer than the 3 s timeout.
            let padding = String(repeating: " ", count: 2_000)
            var answer: [UInt8]?
            let deadline = ContinuousClock.now + .seconds(60)
            while answer == nil && ContinuousClock.now < deadline {
                answer = await connection.received(until: .now + .milliseconds(200))
                if answer == nil { try? connection.send(padding) }
            }
            let text = String(decoding: try #require(answer, "no answer within 60 s"), as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
            #expect(text.hasSuffix("the request body took longer than 3 s"), "\(text)")
        }
    }

    @Test func aSlowButSteadyBodyWithinTheLimitsIsServed() async throws {
        try await TestEnvironment.with(.sqlite, { $0.connectionLimits = Self.limits }) { env in
            let token = try await env.signUp()
            let body = #"[{"noteID":5000,"text":"slow but steady","creationDate":"2014-06-12T16:40:00.000-07:00"}]"#
            let bytes = Array(body.utf8)
            let connection = try RawConnection(port: try #require(env.server.baseURL.port))
            try connection.send(Self.head(token: token, length: bytes.count, start: ""))
            // Three pieces, 300 ms apart: within the grace, well within the timeout.
            let count = bytes.count
            for piece in [0..<count / 3, count / 3..<count * 2 / 3] {
                try connection.send(String(decoding: bytes[piece], as: UTF8.self))
                #expect(await connection.received(until: .now + .milliseconds(300)) == nil)
            }
            try connection.send(String(decoding: bytes[(count * 2 / 3)...], as: UTF8.self))
            let answer = try #require(await connection.received(until: .now + .seconds(60)), "no answer")
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            #expect(try await env.databaseRows("SELECT count(*) FROM notes") == [[1]])
        }
    }

    @Test func oneAddressHoldsOnlyItsShareOfTheConnections() async throws {
        try await TestEnvironment.with(.sqlite, {
            $0.connectionLimits = ConnectionLimits(
                requestHeadTimeout: .seconds(60), idleTimeout: .seconds(60), maximumConnections: 1000, maximumConnectionsPerAddress: 5)
        }) { env in
            let port = try #require(env.server.baseURL.port)
            // Five served on kept-alive connections, so each is counted before the sixth comes.
            var held: [RawConnection] = []
            for _ in 0..<5 {
                let connection = try RawConnection(port: port, from: "127.0.0.2")
                try connection.send("GET /api/blobs/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let answer = try #require(await connection.received(until: .now + .seconds(60)))
                #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 401"))
                held.append(connection)
            }
            // The sixth from the same address is closed at once, without an answer.
            let sixth = try RawConnection(port: port, from: "127.0.0.2")
            #expect(await sixth.closed(until: .now + .seconds(60)))
            // Another address is served; so is the first address once it closes one.
            let other = try RawConnection(port: port, from: "127.0.0.3")
            try other.send("GET /api/blobs/list HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let answer = try #require(await other.received(until: .now + .seconds(60)))
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 401"))
            held.removeLast()
            let again = try await Self.connectUntilServed(port: port, from: "127.0.0.2")
            #expect(again.hasPrefix("HTTP/1.1 401"))
        }
    }

    /// The server notices a closed connection a moment after the client closes it: tries a
    /// request from `source` until it is answered (60 s at most).
    static func connectUntilServed(port: Int, from source: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let connection = try RawConnection(port: port, from: source)
            try? connection.send("GET /api/blobs/list HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            if let answer = await connection.received(until: .now + .seconds(1)), !answer.isEmpty {
                return String(decoding: answer, as: UTF8.self)
            }
        }
        return ""
    }

    @Test func theDefaultsAreTenMinutesTenKilobytesASecondAndAHundredConnectionsAnAddress() {
        let defaults = ConnectionLimits()
        #expect(defaults.requestBodyTimeout == .seconds(600))
        #expect(defaults.minimumBodyBytesPerSecond == 10_000)
        #expect(defaults.bodyRateGrace == .seconds(10))
        #expect(defaults.maximumConnectionsPerAddress == 100)
    }
}
