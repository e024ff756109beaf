/// JSON text for `json_each`, written as UTF-8 bytes: the lists of IDs (``IDList``) and of lookup
/// rows that bulk writes bind.
///
/// A bulk update or delete of 10,000 rows writes its list on the main actor before its SQL can
/// start, so the cost is on the critical path: writing digits into a byte array costs a third of
/// appending `String(id)` to a `String`.
struct JSONText {
    private var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far, to bind.
    var value: SQLValue { .text(String(decoding: bytes, as: UTF8.self)) }

    /// Appends an ASCII character such as `[`, `,` or `]`.
    mutating func append(_ character: Unicode.Scalar) {
        bytes.append(UInt8(ascii: character))
    }

    /// Appends an ID as a JSON number or string.
    mutating func append(_ id: QSAnyID) {
        switch id {
        case .integer(let value): append(value)
        case .string(let value): appendQuoted(value)
        }
    }

    /// Appends an integer's decimal digits: written last first into scratch space, then appended
    /// in order in one copy. (Making room with `repeatElement` first cost more than the digits.)
    mutating func append(_ value: Int64) {
        if value < 0 { append("-") }
        var remaining = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends a string as a JSON string, escaping quotes, backslashes and control characters.
    mutating func appendQuoted(_ string: String) {
        append("\"")
        // Most IDs need no escaping: append them whole rather than byte by byte, scanning the
        // string's own bytes (walking `utf8` by index cost several times as much per byte).
        var string = string
        string.withUTF8 { utf8 in
            if !utf8.contains(where: Self.needsEscaping) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { appendEscaped(byte) }
            }
        }
        append("\"")
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Appends one byte of a string. Bytes of multi-byte characters (0x80 and up) are valid
    /// as they are in a JSON string.
    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case ..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default: bytes.append(byte)
        }
    }
}
