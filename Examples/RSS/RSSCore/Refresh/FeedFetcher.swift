import DeadlineHTTP
import Foundation
import Synchronization

/// Downloads a subscribed feed for `rss refresh`: a conditional GET that follows redirects
/// itself (so that it knows which were permanent) and ends after a time limit.
///
/// ```swift
/// let fetcher = FeedFetcher(timeout: .seconds(20))
/// switch try await fetcher.fetch(FeedFetcher.Request(url: url, etag: feed.etag, lastModified: feed.lastModified)) {
/// case .notModified: break                       // 304: nothing to parse, nothing to write
/// case .fetched(let document): parse(document.data)
/// }
/// ```
public final class FeedFetcher: Sendable {
    /// The longest one feed's download may take, redirects included.
    public let timeout: Duration
    /// The largest document accepted, in bytes (decompressed, when it came compressed).
    public let maximumBytes: Int
    /// Redirects followed before giving up.
    public let maximumRedirects: Int
    /// Waits out ``timeout``; tests pass one they control, so that no test depends on how fast
    /// the machine is.
    private let sleep: @Sendable (Duration) async throws -> Void
    /// Sends each request of the fetch: redirects are returned, not followed, so the fetcher sees
    /// every status code.
    private let transport: @Sendable (DeadlineHTTPRequest) async throws(HTTPTransferError) -> DeadlineHTTPResponse

    /// A fetcher whose downloads each end after `deadlines.total`, redirects included; each
    /// request must also connect and hear from its server within the other two deadlines.
    public convenience init(
        deadlines: HTTPDeadlines, maximumBytes: Int = 100_000_000, maximumRedirects: Int = 5,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        // The client's total deadline is only a backstop: the fetch's timer ends it first.
        var backstop = deadlines
        backstop.total = deadlines.total + .seconds(1)
        let client = DeadlineHTTPClient(deadlines: backstop, maximumBytes: maximumBytes, followsRedirects: false)
        self.init(timeout: deadlines.total, maximumBytes: maximumBytes, maximumRedirects: maximumRedirects, sleep: sleep) {
            request throws(HTTPTransferError) in try await client.send(request)
        }
    }

    /// A fetcher whose requests are sent by `transport`: tests stand in for the network with it.
    init(timeout: Duration, maximumBytes: Int, maximumRedirects: Int, sleep: @escaping @Sendable (Duration) async throws -> Void,
         transport: @escaping @Sendable (DeadlineHTTPRequest) async throws(HTTPTransferError) -> DeadlineHTTPResponse) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        self.sleep = sleep
        self.transport = transport
    }

    /// A fetcher whose downloads each end after `timeout`, redirects included, however the
    /// time is spent.
    public convenience init(
        timeout: Duration = .seconds(30), maximumBytes: Int = 100_000_000, maximumRedirects: Int = 5,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        let backstop = timeout + .seconds(1)
        self.init(deadlines: HTTPDeadlines(connect: backstop, firstByte: backstop, total: timeout),
                  maximumBytes: maximumBytes, maximumRedirects: maximumRedirects, sleep: sleep)
    }

    /// What to fetch, with the validators of the last download.
    public struct Request: Sendable, Equatable {
        public var url: URL
        public var etag: String?
        public var lastModified: String?

        public init(url: URL, etag: String? = nil, lastModified: String? = nil) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
        }
    }

    /// A document downloaded with status 200.
    public struct Document: Sendable {
        public var data: Data
        /// The URL the document came from, after redirects.
        public var url: URL
        public var etag: String?
        public var lastModified: String?
    }

    /// What a fetch found.
    public enum Outcome: Sendable {
        /// 304: the feed has not changed since the validators were stored.
        case notModified
        case fetched(Document)
    }

    /// The outcome, the feed's new address when every redirect on the way was permanent (301 or
    /// 308), and how many requests and bytes it took.
    public struct Result: Sendable {
        public var outcome: Outcome
        public var movedTo: URL?
        public var requests: Int
        public var bytes: Int
    }

    /// Why a feed could not be fetched.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case timedOut(Duration)
        /// The request failed before an answer: no address for the host, a refused connection, a
        /// silent server.
        case network(HTTPTransferError)
        case httpStatus(Int)
        /// 429 or 503 with a `Retry-After` header: the server asks not to be asked again before then.
        case askedToWait(status: Int, retryAfter: RetryAfter)
        case badRedirect(String)
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .timedOut(let limit): return "did not finish answering within \(limit.secondsText) (the overall timeout)"
            case .network(let error): return error.description
            case .httpStatus(let status): return "the server answered HTTP \(status)"
            case .askedToWait(let status, _): return "the server answered HTTP \(status) and asked to wait"
            case .badRedirect(let reason): return reason
            case .tooLarge(let limit): return "too large (more than \(limit) bytes)"
            }
        }
    }

    /// A failed fetch: why, and what it cost before failing.
    public struct FetchError: Error, Equatable, CustomStringConvertible {
        public var failure: Failure
        /// Requests made, redirects included.
        public var requests: Int
        /// Bytes of response bodies received.
        public var bytes: Int

        public var description: String { failure.description }
    }

    /// Fetches `request.url`, sending `If-None-Match` and `If-Modified-Since` when the request
    /// has validators. Ends with ``Failure/timedOut(_:)`` once ``timeout`` has passed.
    public func fetch(_ request: Request) async throws(FetchError) -> Result {
        let timeout = self.timeout
        let sleep = self.sleep
        let tally = RequestTally()
        let outcome = await withTaskGroup(of: Swift.Result<Result, FetchError>?.self) { group in
            group.addTask { await self.followingRedirects(request, tally: tally) }
            group.addTask {
                // Not a poll: one timer, cancelled as soon as the download ends.
                do { try await sleep(timeout) } catch { return nil }
                return .failure(tally.error(.timedOut(timeout)))
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return .failure(tally.error(.timedOut(timeout)))
        }
        return try outcome.get()
    }

    private func followingRedirects(_ request: Request, tally: RequestTally) async -> Swift.Result<Result, FetchError> {
        var url = request.url
        var allPermanent = true
        var headers = [("User-Agent", "QSData-RSS/1.0")]
        if let etag = request.etag { headers.append(("If-None-Match", etag)) }
        if let date = request.lastModified { headers.append(("If-Modified-Since", date)) }
        while tally.requests <= maximumRedirects {
            tally.countRequest()
            let response: DeadlineHTTPResponse
            do {
                response = try await send(DeadlineHTTPRequest(url: url, headers: headers))
            } catch .tooLarge(let limit) {
                return .failure(tally.error(.tooLarge(limit: limit)))
            } catch {
                if Task.isCancelled { return .failure(tally.error(.timedOut(timeout))) }
                return .failure(tally.error(.network(error)))
            }
            tally.count(bytes: response.body.count)
            let moved = url == request.url || !allPermanent ? nil : url
            switch response.statusCode {
            case 200..<300:
                let document = Document(data: response.body, url: url, etag: response.header("ETag"),
                                        lastModified: response.header("Last-Modified"))
                return .success(tally.result(.fetched(document), movedTo: moved))
            case 304:
                return .success(tally.result(.notModified, movedTo: moved))
            case 301, 302, 303, 307, 308:
                guard let location = response.header("Location"),
                      let next = URL(string: location, relativeTo: url)?.absoluteURL,
                      ["http", "https"].contains(next.scheme?.lowercased() ?? "") else {
                    return .failure(tally.error(.badRedirect("HTTP \(response.statusCode) without a usable http(s) Location")))
                }
                allPermanent = allPermanent && [301, 308].contains(response.statusCode)
                url = next
            case 429, 503:
                guard let retryAfter = response.header("Retry-After").flatMap(RetryAfter.init(header:)) else {
                    return .failure(tally.error(.httpStatus(response.statusCode)))
                }
                return .failure(tally.error(.askedToWait(status: response.statusCode, retryAfter: retryAfter)))
            default:
                return .failure(tally.error(.httpStatus(response.statusCode)))
            }
        }
        return .failure(tally.error(.badRedirect("more than \(maximumRedirects) redirects")))
    }

    /// One GET. A connection the server closed before answering is tried once more, as HTTP
    /// clients do for a request that is safe to repeat.
    private func send(_ request: DeadlineHTTPRequest) async throws(HTTPTransferError) -> DeadlineHTTPResponse {
        do {
            return try await transport(request)
        } catch .closedBeforeAnswering {
            return try await transport(request)
        }
    }
}

/// What one fetch has cost so far, readable by its timer when the download is cut off.
private final class RequestTally: Sendable {
    private let counts = Mutex((requests: 0, bytes: 0))

    var requests: Int { counts.withLock { $0.requests } }

    func countRequest() {
        counts.withLock { $0.requests += 1 }
    }

    func count(bytes: Int) {
        counts.withLock { $0.bytes += bytes }
    }

    func error(_ failure: FeedFetcher.Failure) -> FeedFetcher.FetchError {
        counts.withLock { FeedFetcher.FetchError(failure: failure, requests: $0.requests, bytes: $0.bytes) }
    }

    func result(_ outcome: FeedFetcher.Outcome, movedTo: URL?) -> FeedFetcher.Result {
        counts.withLock { FeedFetcher.Result(outcome: outcome, movedTo: movedTo, requests: $0.requests, bytes: $0.bytes) }
    }
}
