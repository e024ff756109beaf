import DeadlineHTTP
import Foundation

/// Reads the bytes of a feed from a file or over http(s), within deadlines and a size limit.
public struct FeedLoader: Sendable {
    /// The default deadlines of one download: 10 s to connect, 15 s of silence, 60 s in all.
    public static let defaultDeadlines = HTTPDeadlines(connect: .seconds(10), firstByte: .seconds(15), total: .seconds(60))

    /// How long a download may take: to connect, to hear from the server, and in all.
    public var deadlines: HTTPDeadlines
    /// The largest document accepted, in bytes.
    public var maximumBytes: Int

    public init(deadlines: HTTPDeadlines = Self.defaultDeadlines, maximumBytes: Int = 100_000_000) {
        self.deadlines = deadlines
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
        let client = DeadlineHTTPClient(deadlines: deadlines, maximumBytes: maximumBytes)
        let response: DeadlineHTTPResponse
        do {
            response = try await client.send(DeadlineHTTPRequest(url: url, headers: [("User-Agent", "QSData-RSS/1.0")]))
        } catch .tooLarge(let limit) {
            throw .tooLarge(bytes: limit + 1, limit: limit)
        } catch {
            throw .network(error.description)
        }
        guard (200..<300).contains(response.statusCode) else { throw .httpStatus(response.statusCode) }
        return response.body
    }
}
