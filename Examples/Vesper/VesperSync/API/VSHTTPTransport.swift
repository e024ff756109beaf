import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

/// Sends HTTP requests. The app uses ``VSURLSessionTransport``; tests pass a fake.
public protocol VSHTTPTransport: Sendable {
    /// Sends the request and returns the final response (after redirects), or throws for a
    /// transport failure (no connection, timeout).
    func send(_ request: VSHTTPRequest) async throws -> VSHTTPResponse
}

/// URLSession configured as the original client was: no cookies, no cache, a 60-second
/// timeout, at most two connections per host. Redirects are followed.
public final class VSURLSessionTransport: VSHTTPTransport {
    private let session: URLSession

    public init(timeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 2
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: VSHTTPRequest) async throws -> VSHTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return VSHTTPResponse(statusCode: http.statusCode, headers: headers, body: data)
    }
}
