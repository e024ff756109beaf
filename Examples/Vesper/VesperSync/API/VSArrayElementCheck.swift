import DeadlineHTTP

/// How large a response may be: the whole body for most calls; for the notes call, whose answer
/// holds every note changed on the server and grows with the library, each note in the JSON
/// array instead, so that a library of any size downloads while no single note is unbounded.
public struct VSResponseLimits: Equatable, Sendable {
    /// The largest whole body of any other call, in bytes.
    public var wholeBody: Int
    /// The largest element of a JSON-array answer read element by element, in bytes.
    public var arrayElement: Int

    /// 100 MB for a whole body and for one note (the server takes request bodies of 64 MB).
    public static let standard = VSResponseLimits(wholeBody: 100_000_000, arrayElement: 100_000_000)

    public init(wholeBody: Int, arrayElement: Int) {
        self.wholeBody = wholeBody
        self.arrayElement = arrayElement
    }
}

/// Which limit applies to a request's response.
public enum VSResponseLimit: Sendable, Equatable {
    /// ``VSResponseLimits/wholeBody`` on the whole body.
    case wholeBody
    /// No limit on the whole body; ``VSResponseLimits/arrayElement`` on each element of the
    /// top-level JSON array.
    case perArrayElement
}

/// Follows a JSON array as it arrives (strings, escapes and nesting) and refuses it when one of
/// its top-level elements grows past `limit` bytes.
struct VSArrayElementCheck: ResponseBodyCheck {
    let limit: Int
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var elementBytes = 0
    private var elementIndex = 0

    init(limit: Int) {
        self.limit = limit
    }

    mutating func inspect(_ bytes: UnsafeRawBufferPointer) throws(ResponseBodyRefused) {
        for byte in bytes {
            if depth >= 1 { elementBytes += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                case UInt8(ascii: ",") where depth == 1:
                    elementBytes = 0
                    elementIndex += 1
                default: break
                }
            }
            if elementBytes > limit {
                throw ResponseBodyRefused(reason: "element \(elementIndex) of the answer is larger than \(limit) bytes")
            }
        }
    }
}
