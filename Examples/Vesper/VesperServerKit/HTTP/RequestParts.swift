import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The protocol's own headers.
extension HTTPField.Name {
    static let zumoAuth = HTTPField.Name("x-zumo-auth")!
    static let vesperSyncToken = HTTPField.Name("x-vesper-synctoken")!
    static let contentMD5 = HTTPField.Name("Content-MD5")!
}

/// The raw request target split into path segments and decoded query parameters.
///
/// Parsed from `head.path` itself: a target such as `//api/blobs/x` (what the stock client sends
/// for DELETE) must stay a path, and empty segments collapse.
struct RequestTarget {
    var segments: [Substring]
    var query: [String: String]

    init(_ target: String) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        segments = parts.first.map { $0.split(separator: "/", omittingEmptySubsequences: true) } ?? []
        query = [:]
        guard parts.count == 2 else { return }
        for pair in parts[1].split(separator: "&") {
            let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = keyValue[0].removingPercentEncoding else { continue }
            let value = keyValue.count == 2 ? keyValue[1].removingPercentEncoding : ""
            if let value, query[key] == nil { query[key] = value }
        }
    }
}

extension Request {
    /// The body, up to `limit` bytes; 413 beyond it (checked against `Content-Length` first).
    func collectBody(limit: Int) async throws -> ByteBuffer {
        if let declared = headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError.payloadTooLarge(limit: limit)
        }
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.payloadTooLarge(limit: limit)
        }
    }
}
