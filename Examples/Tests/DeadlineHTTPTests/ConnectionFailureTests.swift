import DeadlineHTTP
import ExampleTestSupport
import Foundation
import Testing

/// A connection that can't be made fails at once, with its reason, instead of being tried again
/// until the connect deadline.
@Suite struct ConnectionFailureTests {
    /// A connect deadline of ten minutes and a total deadline of one minute: a client that retried
    /// the connection would still be retrying when the total deadline ends the request, and would
    /// report that deadline. Only a request that gave up after its first attempt can report the
    /// refusal or the unknown host.
    static let deadlines = HTTPDeadlines(connect: .seconds(600), firstByte: .seconds(60), total: .seconds(60))

    @Test func aRefusedConnectionFailsAtTheFirstAttempt() async throws {
        let refusing = try LoopbackSocket(listening: false)
        let url = refusing.url("feed.xml")
        await #expect(throws: HTTPTransferError.connectionRefused(host: "127.0.0.1")) {
            _ = try await DeadlineHTTPClient(deadlines: Self.deadlines).send(DeadlineHTTPRequest(url: url))
        }
    }

    /// `.invalid` names never resolve (RFC 6761), online or not.
    @Test func aHostWithNoAddressFailsAtTheFirstAttempt() async throws {
        let url = try #require(URL(string: "http://feeds.example.invalid/feed.xml"))
        await #expect(throws: HTTPTransferError.hostNotFound(host: "feeds.example.invalid")) {
            _ = try await DeadlineHTTPClient(deadlines: Self.deadlines).send(DeadlineHTTPRequest(url: url))
        }
    }

    @Test func messagesSayWhatWasWrongWithTheConnection() {
        #expect(HTTPTransferError.hostNotFound(host: "example.invalid").description
            == "no address found for example.invalid (offline, or no such host)")
        #expect(HTTPTransferError.connectionRefused(host: "127.0.0.1").description == "127.0.0.1 refused the connection")
        #expect(HTTPTransferError.undecodableBody(host: "example.com").description
            == "example.com sent a compressed body that could not be decoded")
    }
}
