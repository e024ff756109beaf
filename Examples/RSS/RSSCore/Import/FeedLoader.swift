import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads the bytes of a feed from a file or over http(s), with timeouts and a size limit.
public struct FeedLoader: Sendable {
    /// Seconds to wait for the server to start answering.
    public var requestTimeout: TimeInterval
    /// Seconds a whole download may take.
    public var resourceTimeout: TimeInterval
    /// The largest document accepted, in bytes.
    public var maximumBytes: Int

    public init(requestTimeout: TimeInterval = 15, resourceTimeout: TimeInterval = 60, maximumBytes: Int = 100_000_000) {
        self.requestTimeout = requestTimeout
        self.resourceTimeout = resourceTimeout
        self.maximumBytes = maximumBytes
    }

    /// Why a document could not be read.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noSuchFile
        case unreadable(String)
        case tooLarge(bytes: Int, limit: Int)
        case network(String)
        case httpStatus(Int)

        public var description: String {
            switch self {
            case .noSuchFile: return "no such file"
            case .unreadable(let reason): return "can't read it: \(reason)"
            case .tooLarge(let bytes, let limit): return "too large (\(bytes) bytes; the limit is \(limit))"
            case .network(let reason): return reason
            case .httpStatus(let status): return "the server answered HTTP \(status)"
            }
        }
    }

    /// The document's bytes.
    public func data(at location: FeedLocation) async throws(Failure) -> Data {
        switch location {
        case .file(let url): return try fileData(url)
        case .remote(let url): return try await remoteData(url)
        }
    }

    private func fileData(_ url: URL) throws(Failure) -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw .noSuchFile
        }
        if let size = attributes[.size] as? Int, size > maximumBytes {
            throw .tooLarge(bytes: size, limit: maximumBytes)
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadable(error.localizedDescription)
        }
    }

    private func remoteData(_ url: URL) async throws(Failure) -> Data {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = resourceTimeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.setValue("QSData-RSS/1.0", forHTTPHeaderField: "User-Agent")
        let result: Result<(Data, URLResponse), any Error> = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure(error))
                } else if let data, let response {
                    continuation.resume(returning: .success((data, response)))
                } else {
                    continuation.resume(returning: .failure(URLError(.badServerResponse)))
                }
            }
            task.resume()
        }
        switch result {
        case .failure(let error):
            throw .network(Self.describe(error))
        case .success(let (data, response)):
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                throw .httpStatus(http.statusCode)
            }
            if data.count > maximumBytes { throw .tooLarge(bytes: data.count, limit: maximumBytes) }
            return data
        }
    }

    /// A network error in words; ``FeedFetcher`` says its errors the same way.
    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return error.localizedDescription }
        switch urlError.code {
        case .cannotConnectToHost: return "connection refused"
        case .timedOut: return "timed out"
        case .cannotFindHost: return "unknown host"
        case .notConnectedToInternet: return "not connected to the internet"
        default: return "network error \(urlError.code.rawValue): \(urlError.localizedDescription)"
        }
    }
}
