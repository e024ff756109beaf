/// A JSON array of uniqueIDs for `json_each` (see ``IDList``): numbers for integer IDs, strings
/// for text ones.
///
/// A bulk update or delete of 10,000 rows writes its list on the main actor before its SQL can
/// start, and the change log writes it again on the queue, so the cost is on the critical path.
/// The text is written straight into the string's own storage, sized beforehand: no array of
/// bytes to grow, copy and check again. An integer is given room for its longest text (20
/// bytes); a string, which may be long, is measured.
enum JSONText {
    static func array(of ids: some Collection<QSAnyID>) -> String {
        String(unsafeUninitializedCapacity: room(for: ids)) { buffer in
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

    /// The most bytes the array of `ids` can take: exactly what it takes when every ID is text.
    static func room(for ids: some Collection<QSAnyID>) -> Int {
        ids.reduce(ids.isEmpty ? 2 : 1) { $0 + 1 + room(for: $1) }
    }

    /// The most bytes `id` can take: a sign and 19 digits, or the string quoted and escaped.
    private static func room(for id: QSAnyID) -> Int {
        switch id {
        case .integer: return 20
        case .string(var value): return value.withUTF8 { utf8 in utf8.reduce(2) { $0 + Writer.escapedLength(of: $1) } }
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

        /// How many bytes `byte` of a string takes in JSON (see ``appendEscaped(_:)``).
        static func escapedLength(of byte: UInt8) -> Int {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): return 2
            case ..<0x20: return 6
            default: return 1
            }
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
