import DeadlineHTTP
import Foundation

/// One HTTP request, as plain values.
public struct VSHTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Header names as sent.
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response, as plain values.
public struct VSHTTPResponse: Sendable, Equatable {
    public var statusCode: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data

    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of a header, whatever the case of its name.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// Sends HTTP requests. The app uses ``VSNetworkTransport``; tests pass a fake.
public protocol VSHTTPTransport: Sendable {
    /// Sends the request and returns the final response (after redirects), or throws for a
    /// transport failure (no connection, timeout).
    func send(_ request: VSHTTPRequest) async throws -> VSHTTPResponse
}

/// The app's transport: HTTP over SwiftNIO with an overall deadline per request (connect,
/// first byte, whole transfer), so a silent or trickling server ends the call with a clear
/// error instead of hanging, and waiting costs no CPU. No cookies, no cache; redirects are
/// followed.
public struct VSNetworkTransport: VSHTTPTransport {
    /// The default deadlines of each API call: 10 s to connect, 30 s of silence, 60 s in all.
    public static let defaultDeadlines = HTTPDeadlines(connect: .seconds(10), firstByte: .seconds(30), total: .seconds(60))

    public let deadlines: HTTPDeadlines

    public init(deadlines: HTTPDeadlines = Self.defaultDeadlines) {
        self.deadlines = deadlines
    }

    public func send(_ request: VSHTTPRequest) async throws -> VSHTTPResponse {
        let response = try await DeadlineHTTPClient(deadlines: deadlines).send(DeadlineHTTPRequest(
            method: request.method, url: request.url, headers: request.headers.map { ($0.key, $0.value) }, body: request.body))
        return VSHTTPResponse(
            statusCode: response.statusCode,
            headers: Dictionary(response.headers, uniquingKeysWith: { first, _ in first }),
            body: response.body)
    }
}
