import Foundation
import Testing

@testable import VesperServerKit

/// A request whose body framing is broken is the client's mistake: 400, never 500, and the
/// connection is closed.
@Suite("Malformed framing")
struct FramingTests {
    /// Head lines after the request line and before the signed-in caller's token, and the body.
    /// Each body ends where the framing breaks: bytes left unread when the server closes would
    /// make the kernel reset the connection, and the client could lose the answer.
    static let requests = [
        // A transfer coding that only looks like chunked.
        ("POST /api/notes", "Transfer-Encoding: xchunked", ""),
        // A chunk size that overflows every integer.
        ("POST /api/notes", "Transfer-Encoding: chunked", "FFFFFFFFFFFFFFFFFF\r\n"),
        // A chunk size that isn't hexadecimal.
        ("POST /api/tags", "Transfer-Encoding: chunked", "ZZ\r\n"),
    ]

    @Test(arguments: requests) func isAnswered400AndClosed(request: (target: String, framing: String, body: String)) async throws {
        try await TestEnvironment.with(.sqlite) { env in
            let token = try await env.signUp()
            let connection = try RawConnection(port: try #require(env.server.baseURL.port))
            try connection.send(
                "\(request.target) HTTP/1.1\r\nHost: 127.0.0.1\r\nx-zumo-auth: \(token)\r\n\(request.framing)\r\n\r\n\(request.body)")
            // A generous bound: this server is in-process, where a busy test run can delay it.
            let answer = try #require(await connection.received(until: .now + .seconds(60)), "no answer")
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400"), "\(text)")
            #expect(await connection.closed(until: .now + .seconds(60)))
            #expect(env.logs.entries("Request failed").isEmpty)
        }
    }
}
