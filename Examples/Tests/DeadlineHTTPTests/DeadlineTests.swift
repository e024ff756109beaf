@testable import DeadlineHTTP
import Foundation
import Testing

/// Every network operation ends by its deadline, however the server behaves, and waiting
/// costs next to no CPU.
@Suite(.serialized) struct DeadlineTests {
    /// Generous room above a deadline for a busy machine: the assertion is that the operation
    /// ends (the defect was a wait of minutes), not how fast. In a full parallel run other
    /// suites' blocking waits can hold the cooperative threads for seconds (12 s was seen).
    static let margin: Duration = .seconds(30)

    static func url(_ server: SlowLoopbackServer) -> URL {
        URL(string: "http://127.0.0.1:\(server.port)/feed.xml")!
    }

    @Test func aSilentServerEndsTheRequestAtTheFirstByteDeadline() async throws {
        let server = try SlowLoopbackServer(.silent)
        defer { server.stop() }
        let deadlines = HTTPDeadlines(connect: .seconds(2), firstByte: .seconds(1), total: .seconds(30))
        let started = ContinuousClock.now
        await #expect(throws: HTTPTransferError.serverSilent(host: "127.0.0.1", after: .seconds(1))) {
            _ = try await DeadlineHTTPClient(deadlines: deadlines).send(DeadlineHTTPRequest(url: Self.url(server)))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(1) + Self.margin, "ended after \(elapsed)")
    }

    @Test func aTricklingServerEndsTheRequestAtTheTotalDeadline() async throws {
        let server = try SlowLoopbackServer(.trickle(interval: .milliseconds(100)))
        defer { server.stop() }
        // A silence limit far above the trickle's pauses, even on a busy machine: only the total ends it.
        let deadlines = HTTPDeadlines(connect: .seconds(2), firstByte: .seconds(10), total: .seconds(2))
        let started = ContinuousClock.now
        await #expect(throws: HTTPTransferError.totalDeadlineExceeded(host: "127.0.0.1", after: .seconds(2))) {
            _ = try await DeadlineHTTPClient(deadlines: deadlines).send(DeadlineHTTPRequest(url: Self.url(server)))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(2) && elapsed < .seconds(2) + Self.margin, "ended after \(elapsed)")
    }

    /// On a busy machine the overall timer can be served after a silence timer due later; the
    /// operation ran out of its overall time all the same, and the error says so.
    @Test func aShorterTimeoutThatFiresAfterTheOverallDeadlineIsReportedAsTheOverallOne() {
        let deadlines = HTTPDeadlines(connect: .seconds(2), firstByte: .seconds(10), total: .seconds(2))
        let overall = HTTPTransferError.totalDeadlineExceeded(host: "example.com", after: .seconds(2))
        let silent = HTTPTransferError.serverSilent(host: "example.com", after: .seconds(10))
        #expect(silent.blamingTheOverallTimeout(after: .seconds(10), of: deadlines, host: "example.com") == overall)
        #expect(HTTPTransferError.connectTimedOut(host: "example.com", after: .seconds(2))
            .blamingTheOverallTimeout(after: .seconds(2), of: deadlines, host: "example.com") == overall)
        // Before the overall deadline, a silence is a silence; other failures keep their own names.
        #expect(silent.blamingTheOverallTimeout(after: .milliseconds(1999), of: deadlines, host: "example.com") == silent)
        let refused = HTTPTransferError.connectionRefused(host: "example.com")
        #expect(refused.blamingTheOverallTimeout(after: .seconds(10), of: deadlines, host: "example.com") == refused)
    }

    @Test func messagesNameTheDeadlineThatRanOut() {
        #expect(HTTPTransferError.totalDeadlineExceeded(host: "example.com", after: .seconds(60)).description
            == "example.com did not finish answering within 60 s (the overall timeout)")
        #expect(HTTPTransferError.serverSilent(host: "example.com", after: .milliseconds(1500)).description
            == "example.com sent no part of its answer for 1.5 s, silent or trickling (the first-byte timeout)")
        #expect(HTTPDeadlines(totalSeconds: 4, connectSeconds: 10) == HTTPDeadlines(connect: .seconds(4), firstByte: .seconds(2), total: .seconds(4)))
    }
}
