/// Recognises and decodes UTF-32 documents, which `XMLParser` does not read.
///
/// A document is UTF-32 when it starts with a UTF-32 byte-order mark or, without one, with `<`
/// written as four bytes (`00 00 00 3C` or `3C 00 00 00`), as the XML specification's
/// encoding-detection appendix describes.
enum UTF32Decoder {
    /// `true` for big-endian, `false` for little-endian, `nil` when `bytes` are not UTF-32.
    static func byteOrder(_ bytes: [UInt8]) -> (bigEndian: Bool, bomLength: Int)? {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (true, 4) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (false, 4) }
        if bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) { return (true, 0) }
        if bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) { return (false, 0) }
        return nil
    }

    /// The document as UTF-8. A length that is not a multiple of four (a truncated document) or
    /// a value that is no Unicode scalar makes the document ill-formed.
    static func utf8(from bytes: [UInt8], bigEndian: Bool, bomLength: Int) throws(FeedParserError) -> [UInt8] {
        var text = String.UnicodeScalarView()
        var line = 1, column = 1
        var index = bomLength
        while index + 4 <= bytes.count {
            let unit = bytes[index..<(index + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let value = bigEndian ? unit : unit.byteSwapped
            guard let scalar = Unicode.Scalar(value) else {
                throw .malformedXML(code: 9, line: line, column: column,
                                    message: "UTF-32 value \(value) at byte \(index) is not a character")
            }
            text.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            index += 4
        }
        if index != bytes.count {
            throw .malformedXML(code: 9, line: line, column: column,
                                message: "the document ends in the middle of a UTF-32 character (truncated)")
        }
        return Array(String(text).utf8)
    }
}
