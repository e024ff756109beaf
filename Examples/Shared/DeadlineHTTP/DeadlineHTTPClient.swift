import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

/// Sends one HTTP request and reads the whole response within ``HTTPDeadlines``.
///
/// Built on AsyncHTTPClient (SwiftNIO), so waiting on a silent or slow server sleeps in the
/// event loop and costs no CPU. The total deadline is a timer raced against the whole
/// operation, so it holds even while the body trickles in.
///
/// A host that can't be resolved or a connection that is refused fails at once: a failed
/// connection attempt is not retried until the connect deadline, so a machine that is offline
/// learns it in milliseconds, not seconds per request. Responses may be compressed: the client
/// asks for gzip or deflate and decodes them, and ``maximumBytes`` limits the decoded body, so a
/// small compressed answer that would inflate past it is refused.
///
/// ```swift
/// let response = try await DeadlineHTTPClient(deadlines: HTTPDeadlines(total: .seconds(30)))
///     .send(DeadlineHTTPRequest(url: URL(string: "https://example.com/feed.xml")!))
/// ```
public struct DeadlineHTTPClient: Sendable {
    public var deadlines: HTTPDeadlines
    /// The largest response body accepted, in bytes; nil for no limit on the whole body (a
    /// ``bodyCheck`` then bounds it piece by piece).
    public var maximumBytes: Int?
    /// Whether redirects are followed; when not, a 3xx response is returned like any other.
    public var followsRedirects: Bool
    /// Makes a check that sees the (decoded) body as it arrives and may refuse it part way.
    public var bodyCheck: (@Sendable () -> any ResponseBodyCheck)?

    public init(
        deadlines: HTTPDeadlines = HTTPDeadlines(), maximumBytes: Int? = 100_000_000, followsRedirects: Bool = true,
        bodyCheck: (@Sendable () -> any ResponseBodyCheck)? = nil
    ) {
        self.deadlines = deadlines
        self.maximumBytes = maximumBytes
        self.followsRedirects = followsRedirects
        self.bodyCheck = bodyCheck
    }

    /// The response, whatever its status.
    /// - Throws: ``HTTPTransferError``.
    public func send(_ request: DeadlineHTTPRequest) async throws(HTTPTransferError) -> DeadlineHTTPResponse {
        let host = request.url.host ?? request.url.absoluteString
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: .milliseconds(deadlines.connect.wholeMilliseconds), read: .milliseconds(deadlines.firstByte.wholeMilliseconds)))
        configuration.httpVersion = .http1Only
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: maximumBytes.map { .size($0) } ?? .none)
        if !followsRedirects { configuration.redirectConfiguration = .disallow }
        // An event loop of its own: NIO looks host names up on one serial queue per event loop,
        // so on shared loops one lookup that waits for an unreachable name server holds up every
        // request behind it.
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = HTTPClient(eventLoopGroup: loop, configuration: configuration)
        let started = ContinuousClock.now
        let result: Result<DeadlineHTTPResponse, any Error>
        do {
            result = .success(try await withDeadline(deadlines.total) { try await exchange(request, client: client) })
        } catch {
            result = .failure(error)
        }
        do {
            try await client.shutdown()
            try await loop.shutdownGracefully()
        } catch {
            // The exchange is over; a client that fails to shut down cleanly loses nothing.
        }
        switch result {
        case .success(let response): return response
        case .failure(let error):
            throw classify(error, host: host).blamingTheOverallTimeout(after: ContinuousClock.now - started, of: deadlines, host: host)
        }
    }

    private func exchange(_ request: DeadlineHTTPRequest, client: HTTPClient) async throws -> DeadlineHTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(outgoing, deadline: .now() + .milliseconds(deadlines.total.wholeMilliseconds))
        var body = Data()
        var check = bodyCheck?()
        for try await part in response.body {
            if let maximumBytes, body.count + part.readableBytes > maximumBytes {
                throw HTTPTransferError.tooLarge(limit: maximumBytes)
            }
            try part.withUnsafeReadableBytes { bytes in try check?.inspect(bytes) }
            body.append(contentsOf: part.readableBytesView)
        }
        return DeadlineHTTPResponse(
            statusCode: Int(response.status.code),
            headers: response.headers.map { ($0.name, $0.value) },
            body: body)
    }

    /// Runs `operation`, cancelling it when `limit` passes first.
    private func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw TotalDeadlinePassed()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw TotalDeadlinePassed() }
            return first
        }
    }

    private struct TotalDeadlinePassed: Error {}

    private func classify(_ error: any Error, host: String) -> HTTPTransferError {
        if let known = error as? HTTPTransferError { return known }
        if error is TotalDeadlinePassed { return .totalDeadlineExceeded(host: host, after: deadlines.total) }
        if error is NIOTooManyBytesError, let maximumBytes { return .tooLarge(limit: maximumBytes) }
        if let refusal = error as? ResponseBodyRefused { return .refusedBody(host: host, reason: refusal.reason) }
        if let decompression = error as? NIOHTTPDecompression.DecompressionError {
            if decompression == .limit, let maximumBytes { return .tooLarge(limit: maximumBytes) }
            return .undecodableBody(host: host)
        }
        if let connection = error as? NIOConnectionError { return classify(connection, host: host) }
        // An address given as an IP literal is connected to directly, without NIOConnectionError.
        if (error as? IOError)?.errnoCode == ECONNREFUSED { return .connectionRefused(host: host) }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .connectTimeout: return .connectTimedOut(host: host, after: deadlines.connect)
            case .readTimeout: return .serverSilent(host: host, after: deadlines.firstByte)
            case .deadlineExceeded: return .totalDeadlineExceeded(host: host, after: deadlines.total)
            case .remoteConnectionClosed: return .closedBeforeAnswering(host: host)
            default: break
            }
        }
        return .failed(host: host, reason: String(describing: error))
    }

    /// A failed connection: no address for the name, or every address refused.
    private func classify(_ error: NIOConnectionError, host: String) -> HTTPTransferError {
        if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
            return .hostNotFound(host: host)
        }
        let refused = error.connectionErrors.allSatisfy { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
        if refused, !error.connectionErrors.isEmpty { return .connectionRefused(host: host) }
        return .failed(host: host, reason: String(describing: error))
    }
}

/// Sees a response body piece by piece as it arrives, and refuses it by throwing
/// ``ResponseBodyRefused`` — for a body with no overall limit whose parts each have one.
public protocol ResponseBodyCheck {
    mutating func inspect(_ bytes: UnsafeRawBufferPointer) throws(ResponseBodyRefused)
}

/// Why a ``ResponseBodyCheck`` refused a body, in words.
public struct ResponseBodyRefused: Error, Equatable, Sendable {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// One request, as plain values.
public struct DeadlineHTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [(String, String)]
    public var body: Data?

    public init(method: String = "GET", url: URL, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One complete response, as plain values.
public struct DeadlineHTTPResponse: Sendable {
    public var statusCode: Int
    /// Header names as the server sent them, in order.
    public var headers: [(String, String)]
    public var body: Data

    /// The first value of the header `name` (compared without regard to case), if sent.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
