import Foundation
import Testing

@testable import VesperServerKit

/// Connections that never finish a request can't stall the server: they are closed after the
/// request-head timeout, idle kept-alive connections after the idle timeout, and meanwhile
/// real requests are answered.
@Suite("Half-open and idle connections", .serialized)
struct ConnectionLimitTests {
    static let limits = ConnectionLimits(requestHeadTimeout: .seconds(2), idleTimeout: .seconds(3), maximumConnections: 1000)

    /// The built `vesper-server` runs in its own process here, with its own event loops: in this
    /// test process every test's server shares one event-loop group, and a busy neighbour would
    /// say nothing about this server.
    @Test(.enabled(if: ServerProcess.executable != nil, "vesper-server was not built"))
    func threeHundredHalfOpenConnectionsDoNotDelayARequestAndAreClosed() async throws {
        let server = try await ServerProcess.started(["--request-head-timeout", "2", "--idle-timeout", "3"])
        defer { server.stop() }
        let port = server.port
        var halfOpen: [RawConnection] = []
        for index in 0..<300 {
            // From three addresses, so that each holds its share of the connections (100).
            let connection = try RawConnection(port: port, from: "127.0.0.\(2 + index % 3)")
            try connection.send("POST /api/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            halfOpen.append(connection)
        }

        // A normal request is answered within a second while all 300 hang.
        let normal = try RawConnection(port: port)
        try normal.send("GET /api/blobs/list HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = try #require(await normal.received(until: .now + .seconds(1)), "no answer within a second")
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 401"))

        // Every half-open connection is closed by the server (EOF, nothing sent), well
        // within the timeout plus a margin for a busy machine.
        let deadline = ContinuousClock.now + .seconds(30)
        var closed = 0
        for connection in halfOpen where await connection.closed(until: deadline) { closed += 1 }
        #expect(closed == 300)
    }

    @Test(arguments: Engine.available) func anIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout(engine: Engine) async throws {
        try await TestEnvironment.with(engine, { $0.connectionLimits = Self.limits }) { env in
            let connection = try RawConnection(port: try #require(env.server.baseURL.port))
            try connection.send("GET /api/blobs/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = try #require(await connection.received(until: .now + .seconds(10)))
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 401"))
            // Kept alive after the response; nothing more is sent, so the server closes it.
            #expect(await connection.closed(until: .now + .seconds(30)))
        }
    }

    @Test func theDefaultsAreAFewSecondsForAHeadAndACap() {
        let defaults = VesperServerConfiguration(database: .sqlite(path: "db"), attachmentsPath: "a").connectionLimits
        #expect(defaults == ConnectionLimits(requestHeadTimeout: .seconds(5), idleTimeout: .seconds(30), maximumConnections: 1000))
    }
}
