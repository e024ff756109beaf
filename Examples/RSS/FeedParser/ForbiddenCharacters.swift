/// The characters XML 1.0 does not allow in a document, and what the parser reads instead.
///
/// XML allows tab, line feed, carriage return and every other character from U+0020 on, except
/// the surrogates and U+FFFE/U+FFFF. Feeds still carry the others — a vertical tab pasted from a
/// word processor, a NUL from a broken database — and one is enough for an XML parser to give up.
/// A vertical tab or form feed (white space in every other text format) is read as a space; any
/// other forbidden character as U+FFFD, the replacement character.
enum ForbiddenCharacters {
    private static let space: [UInt8] = [0x20]
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The UTF-8 to read instead of code point `value`, or `nil` when XML allows it.
    static func replacement(for value: UInt32) -> [UInt8]? {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return nil
        case 0x0B, 0x0C: return space
        default: return replacementCharacter
        }
    }

    /// `bytes` (valid UTF-8) with every forbidden character replaced, each one logged; `nil` when
    /// there was none.
    static func replacing(in bytes: [UInt8], log: inout RecoveryLog) -> [UInt8]? {
        var output: [UInt8] = []
        var copiedUpTo = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            let value: UInt32
            if byte < 0x20 {
                (length, value) = (1, UInt32(byte))
            } else if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                // U+FFFE or U+FFFF: EF BF BE and EF BF BF.
                (length, value) = (3, 0xFFC0 | UInt32(bytes[index + 2] & 0x3F))
            } else {
                index += 1
                continue
            }
            if let replacement = replacement(for: value) {
                if output.isEmpty { output.reserveCapacity(bytes.count + 16) }
                output += bytes[copiedUpTo..<index]
                output += replacement
                copiedUpTo = index + length
                log.note(.forbiddenCharacter, at: index, in: bytes)
            }
            index += length
        }
        guard copiedUpTo > 0 else { return nil }
        output += bytes[copiedUpTo...]
        return output
    }
}
