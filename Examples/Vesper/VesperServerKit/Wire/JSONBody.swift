import Foundation
import NIOCore

/// Decoding request bodies: anything malformed or of the wrong shape is a 400, never a crash or a partial write.
enum JSONBody {
    /// Decodes `type` from `buffer`; an empty body decodes as `empty` when one is given.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from buffer: ByteBuffer, empty: Value? = nil
    ) throws(APIError) -> Value {
        if buffer.readableBytes == 0 || buffer.readableBytesView.allSatisfy(isJSONWhitespace) {
            if let empty { return empty }
            throw .badRequest("the request body is empty")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw .badRequest("the request body is not the expected JSON: \(describe(error))")
        } catch {
            throw .badRequest("the request body is not JSON")
        }
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// Compact JSON for a response body.
    static func encode(_ value: some Encodable) throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return ByteBuffer(bytes: try encoder.encode(value))
    }
}
