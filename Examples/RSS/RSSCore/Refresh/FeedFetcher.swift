import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    /// The largest document accepted, in bytes.
    public let maximumBytes: Int
    /// Redirects followed before giving up.
    public let maximumRedirects: Int
    private let session: URLSession
    private let delegate = TransferDelegate()

    public init(timeout: Duration = .seconds(30), maximumBytes: Int = 100_000_000, maximumRedirects: Int = 5) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // Only a backstop: the fetch's own timer ends it first. FoundationNetworking counts
        // these in whole seconds, so a limit under one second would end every request at once.
        let backstop = (timeout.inSeconds + 1).rounded(.up)
        configuration.timeoutIntervalForRequest = backstop
        configuration.timeoutIntervalForResource = backstop
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
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
        case network(String)
        case httpStatus(Int)
        case badRedirect(String)
        case tooLarge(bytes: Int, limit: Int)

        public var description: String {
            switch self {
            case .timedOut(let limit): return "timed out after \(limit.inSeconds) s"
            case .network(let reason): return reason
            case .httpStatus(let status): return "the server answered HTTP \(status)"
            case .badRedirect(let reason): return reason
            case .tooLarge(let bytes, let limit): return "too large (\(bytes) bytes; the limit is \(limit))"
            }
        }
    }

    /// Fetches `request.url`, sending `If-None-Match` and `If-Modified-Since` when the request
    /// has validators. Ends with ``Failure/timedOut(_:)`` once ``timeout`` has passed.
    public func fetch(_ request: Request) async throws(Failure) -> Result {
        let timeout = self.timeout
        let outcome = await withTaskGroup(of: Swift.Result<Result, Failure>?.self) { group in
            group.addTask { await self.followingRedirects(request) }
            group.addTask {
                // Not a poll: one timer, cancelled as soon as the download ends.
                do { try await Task.sleep(for: timeout) } catch { return nil }
                return .failure(.timedOut(timeout))
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return .failure(.timedOut(timeout))
        }
        return try outcome.get()
    }

    private func followingRedirects(_ request: Request) async -> Swift.Result<Result, Failure> {
        var url = request.url
        var allPermanent = true
        var requests = 0
        var bytes = 0
        while requests <= maximumRedirects {
            var urlRequest = URLRequest(url: url)
            urlRequest.setValue("QSData-RSS/1.0", forHTTPHeaderField: "User-Agent")
            if let etag = request.etag { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let date = request.lastModified { urlRequest.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
            requests += 1
            let data: Data
            let response: HTTPURLResponse
            do {
                (data, response) = try await send(urlRequest)
            } catch {
                if Task.isCancelled || (error as? URLError)?.code == .timedOut { return .failure(.timedOut(timeout)) }
                return .failure(.network(FeedLoader.describe(error)))
            }
            bytes += data.count
            let moved = url == request.url || !allPermanent ? nil : url
            switch response.statusCode {
            case 200..<300:
                if data.count > maximumBytes { return .failure(.tooLarge(bytes: data.count, limit: maximumBytes)) }
                let document = Document(data: data, url: url, etag: response.value(forHTTPHeaderField: "ETag"),
                                        lastModified: response.value(forHTTPHeaderField: "Last-Modified"))
                return .success(Result(outcome: .fetched(document), movedTo: moved, requests: requests, bytes: bytes))
            case 304:
                return .success(Result(outcome: .notModified, movedTo: moved, requests: requests, bytes: bytes))
            case 301, 302, 303, 307, 308:
                guard let location = response.value(forHTTPHeaderField: "Location"),
                      let next = URL(string: location, relativeTo: url)?.absoluteURL,
                      ["http", "https"].contains(next.scheme?.lowercased() ?? "") else {
                    return .failure(.badRedirect("HTTP \(response.statusCode) without a usable http(s) Location"))
                }
                allPermanent = allPermanent && [301, 308].contains(response.statusCode)
                url = next
            default:
                return .failure(.httpStatus(response.statusCode))
            }
        }
        return .failure(.badRedirect("more than \(maximumRedirects) redirects"))
    }

    /// One request, cancelled when the calling task is.
    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(task, continuation)
                task.resume()
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// Collects each task's response and body, and hands every redirect back to ``FeedFetcher``
/// instead of following it, so that the fetcher sees each status code.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        let continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
        var response: HTTPURLResponse?
        var data = Data()
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    /// Call before the task is resumed.
    func register(_ task: URLSessionTask, _ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) {
        transfers.withLock { $0[task.taskIdentifier] = Transfer(continuation: continuation) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.data.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            transfer.continuation.resume(throwing: error)
        } else if let response = transfer.response ?? task.response as? HTTPURLResponse {
            transfer.continuation.resume(returning: (transfer.data, response))
        } else {
            transfer.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
