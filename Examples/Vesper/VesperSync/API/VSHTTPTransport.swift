import DeadlineHTTP
import Foundation

/// One HTTP request, as plain values.
public struct VSHTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Header names as sent.
    public var headers: [String: String]
    public var body: Data?
    /// What bounds the response's size.
    public var responseLimit: VSResponseLimit

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, responseLimit: VSResponseLimit = .wholeBody) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.responseLimit = responseLimit
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
///
/// With a ``runLimit``, every call it sends also shares one deadline, counted from the
/// transport's creation: each call gets at most what is left, and once it is used up calls fail
/// at once, so a whole sync — however many steps and logins it makes — ends within that time.
public struct VSNetworkTransport: VSHTTPTransport {
    /// The default deadlines of each API call: 10 s to connect, 30 s of silence, 60 s in all.
    public static let defaultDeadlines = HTTPDeadlines(connect: .seconds(10), firstByte: .seconds(30), total: .seconds(60))

    public let deadlines: HTTPDeadlines
    /// The time every call sent through this transport shares; nil for none.
    public let runLimit: Duration?
    /// How large responses may be.
    public let responseLimits: VSResponseLimits
    private let runEnd: ContinuousClock.Instant?

    public init(deadlines: HTTPDeadlines = Self.defaultDeadlines, runLimit: Duration? = nil, responseLimits: VSResponseLimits = .standard) {
        self.deadlines = deadlines
        self.runLimit = runLimit
        self.responseLimits = responseLimits
        runEnd = runLimit.map { ContinuousClock.now + $0 }
    }

    public func send(_ request: VSHTTPRequest) async throws -> VSHTTPResponse {
        var deadlines = self.deadlines
        if let runEnd, let runLimit {
            let remaining = runEnd - .now
            guard remaining > .zero else { throw VSRunOutOfTime(limit: runLimit) }
            deadlines = deadlines.limited(to: remaining)
        }
        var client = DeadlineHTTPClient(deadlines: deadlines, maximumBytes: responseLimits.wholeBody)
        if request.responseLimit == .perArrayElement {
            let elementLimit = responseLimits.arrayElement
            client.maximumBytes = nil
            client.bodyCheck = { VSArrayElementCheck(limit: elementLimit) }
        }
        let response = try await client.send(DeadlineHTTPRequest(
            method: request.method, url: request.url, headers: request.headers.map { ($0.key, $0.value) }, body: request.body))
        return VSHTTPResponse(
            statusCode: response.statusCode,
            headers: Dictionary(response.headers, uniquingKeysWith: { first, _ in first }),
            body: response.body)
    }
}

/// A call not sent because the run's shared deadline (``VSNetworkTransport/runLimit``) had passed.
public struct VSRunOutOfTime: Error, Equatable, CustomStringConvertible {
    public let limit: Duration

    public var description: String {
        "not sent: the \(limit.secondsText) allowed for talking to the server in all were used up (the overall timeout)"
    }
}
