import DeadlineHTTP
import Foundation

/// Reads the bytes of a feed from a file or over http(s), within deadlines and a size limit.
///
/// Downloads go through ``FeedFetcher``, as `rss refresh`'s do: redirects are followed and a
/// permanent one is reported, and the server's validators come back with the bytes, so that the
/// first refresh after an import can be a conditional GET.
public struct FeedLoader: Sendable {
    /// The default deadlines of one download: 10 s to connect, 15 s of silence, 60 s in all.
    public static let defaultDeadlines = HTTPDeadlines(connect: .seconds(10), firstByte: .seconds(15), total: .seconds(60))

    /// How long a download may take: to connect, to hear from the server, and in all.
    public let deadlines: HTTPDeadlines
    /// The largest document accepted, in bytes (decompressed, when it came compressed).
    public let maximumBytes: Int
    private let fetcher: FeedFetcher

    public init(deadlines: HTTPDeadlines = Self.defaultDeadlines, maximumBytes: Int = 100_000_000) {
        self.init(deadlines: deadlines, fetcher: FeedFetcher(deadlines: deadlines, maximumBytes: maximumBytes))
    }

    /// A loader that downloads with `fetcher`: tests stand in for the network with it.
    init(deadlines: HTTPDeadlines = Self.defaultDeadlines, fetcher: FeedFetcher) {
        self.deadlines = deadlines
        maximumBytes = fetcher.maximumBytes
        self.fetcher = fetcher
    }

    /// Why a document could not be read.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noSuchFile
        case unreadable(String)
        case tooLarge(bytes: Int, limit: Int)
        /// The download failed; the fetcher says why.
        case download(FeedFetcher.Failure)

        /// Whether the download failed because its host name has no address.
        public var isHostNotFound: Bool {
            if case .download(.network(.hostNotFound)) = self { return true }
            return false
        }

        public var description: String {
            switch self {
            case .noSuchFile: return "no such file"
            case .unreadable(let reason): return "can't read it: \(reason)"
            case .tooLarge(let bytes, let limit): return "too large (\(bytes) bytes; the limit is \(limit))"
            case .download(let failure): return failure.description
            }
        }
    }

    /// A document's bytes, and for a download what the server said about them.
    public struct Document: Sendable {
        public var data: Data
        /// The download: where it came from after redirects, with its `ETag` and `Last-Modified`;
        /// `nil` for a file.
        public var download: FeedFetcher.Document?
        /// The feed's new address, when every redirect on the way was permanent.
        public var movedTo: URL?
    }

    /// The document at `location`.
    public func document(at location: FeedLocation) async throws(Failure) -> Document {
        switch location {
        case .file(let url): return Document(data: try fileData(url))
        case .remote(let url): return try await download(url)
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

    private func download(_ url: URL) async throws(Failure) -> Document {
        let result: FeedFetcher.Result
        do {
            result = try await fetcher.fetch(FeedFetcher.Request(url: url))
        } catch {
            throw .download(error.failure)
        }
        // Without validators in the request, a server has no reason to answer 304.
        guard case .fetched(let document) = result.outcome else { throw .download(.httpStatus(304)) }
        return Document(data: document.data, download: document, movedTo: result.movedTo)
    }
}
