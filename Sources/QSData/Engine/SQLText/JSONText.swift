/// A JSON array of uniqueIDs for `json_each` (see ``IDList``): numbers for integer IDs, strings
/// for text ones.
///
/// A bulk update or delete of 10,000 rows writes its list on the main actor before its SQL can
/// start, and the change log writes it again on the queue, so the cost is on the critical path.
/// The text is written straight into the string's own storage, sized beforehand for the longest
/// text each ID can take: no array of bytes to grow, copy and check again.
enum JSONText {
    static func array(of ids: some Collection<QSAnyID>) -> String {
        let capacity = ids.reduce(2) { $0 + 1 + longestText(of: $1) }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = Writer(buffer: buffer)
            writer.append(UInt8(ascii: "["))
            var first = true
            for id in ids {
                if !first { writer.append(UInt8(ascii: ",")) }
                first = false
                switch id {
                case .integer(let value): writer.append(value)
                case .string(let value): writer.appendQuoted(value)
                }
            }
            writer.append(UInt8(ascii: "]"))
            return writer.count
        }
    }

    /// The most bytes `id` can take: a sign and 19 digits, or a string whose every byte is
    /// escaped as `\u00XX`, in quotes.
    private static func longestText(of id: QSAnyID) -> Int {
        switch id {
        case .integer: return 20
        case .string(let value): return value.utf8.count * 6 + 2
        }
    }

    /// Writes bytes one after another into storage sized for all of them.
    private struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0

        init(buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        mutating func append(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        /// Appends an integer's decimal digits: counted first, then written last first.
        mutating func append(_ value: Int64) {
            if value < 0 { append(UInt8(ascii: "-")) }
            var remaining = value.magnitude
            var digits = 1
            var power: UInt64 = 10
            // At most 19 digits (10^19 still fits in a UInt64).
            while digits < 19, remaining >= power {
                digits += 1
                power *= 10
            }
            count += digits
            var position = count
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            } while remaining > 0
        }

        /// Appends a string as a JSON string, escaping quotes, backslashes and control characters.
        mutating func appendQuoted(_ string: String) {
            append(UInt8(ascii: "\""))
            // Most IDs need no escaping: copy them whole rather than byte by byte, scanning the
            // string's own bytes (walking `utf8` by index cost several times as much per byte).
            var string = string
            string.withUTF8 { utf8 in
                if utf8.contains(where: Self.needsEscaping) {
                    for byte in utf8 { appendEscaped(byte) }
                } else {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: utf8)
                    count += utf8.count
                }
            }
            append(UInt8(ascii: "\""))
        }

        private static func needsEscaping(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        }

        /// Appends one byte of a string. Bytes of multi-byte characters (0x80 and up) are valid
        /// as they are in a JSON string.
        private mutating func appendEscaped(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                append(UInt8(ascii: "\\"))
                append(byte)
            case UInt8(ascii: "\n"): appendEscape(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): appendEscape(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): appendEscape(UInt8(ascii: "t"))
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                appendEscape(UInt8(ascii: "u"))
                for digit in [UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] { append(digit) }
            default: append(byte)
            }
        }

        private mutating func appendEscape(_ letter: UInt8) {
            append(UInt8(ascii: "\\"))
            append(letter)
        }
    }
}
