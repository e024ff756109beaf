import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// Response bodies compressed the way a web server compresses them: by NIO's own response
/// compressor, run on an in-memory channel.
enum CompressedBody {
    /// `bytes` encoded as `encoding` ("gzip" or "deflate").
    static func encode(_ bytes: [UInt8], as encoding: String) throws -> [UInt8] {
        let channel = EmbeddedChannel(handler: HTTPResponseCompressor())
        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: ["Accept-Encoding": encoding])
        try channel.writeInbound(HTTPServerRequestPart.head(request))
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: bytes))))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        var encoded: [UInt8] = []
        while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) {
            switch part {
            case .body(.byteBuffer(let buffer)): encoded += buffer.readableBytesView
            case .body(.fileRegion): throw UnexpectedFileRegion()
            case .head, .end: break
            }
        }
        _ = try channel.finish()
        return encoded
    }

    private struct UnexpectedFileRegion: Error {}
}
