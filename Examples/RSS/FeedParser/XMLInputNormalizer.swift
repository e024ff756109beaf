import Foundation

/// Turns raw feed bytes into clean UTF-8 that `XMLParser` reads identically on
/// every platform:
///
/// Every repair of an error in the document (steps 3, 4 and 6) is logged, for the feed's warnings.
///
/// 1. byte-order marks are removed (UTF-16 and UTF-32 input, with or without a mark, is
///    transcoded);
/// 2. a legacy `encoding="…"` in the XML declaration is converted to UTF-8 with
///    ``TextEncodingConverter`` and the declaration rewritten to say UTF-8;
/// 3. undeclared-UTF-8 input with stray invalid bytes is repaired as windows-1252;
/// 4. characters XML does not allow are replaced (``ForbiddenCharacters``);
/// 5. HTML written straight into prose elements is put in CDATA (``InlineMarkupQuoter``), where
///    the next step leaves it as written;
/// 6. entity references are rewritten by ``EntityRewriter`` so that none loses text, and bare
///    ampersands escaped;
/// 7. processing instructions, the XML declaration among them, are removed: feeds need none, and
///    the toolchain's `XMLParser` crashes on one without data (`<?name?>`; found by the fuzzer).
///    A `<?` inside CDATA is removed the same way, a loss no real feed was seen to need.
enum XMLInputNormalizer {
    /// Returns normalized UTF-8 bytes.
    static func normalize(_ data: Data, log: inout RecoveryLog) throws(FeedParserError) -> [UInt8] {
        var bytes = [UInt8](data)
        bytes = try normalizeEncoding(bytes, log: &log)
        bytes = ForbiddenCharacters.replacing(in: bytes, log: &log) ?? bytes
        bytes = InlineMarkupQuoter.quoting(bytes) ?? bytes
        bytes = try EntityRewriter.rewrite(bytes, log: &log) ?? bytes
        bytes = removingProcessingInstructions(bytes)
        // The toolchain's XMLParser traps on an element, attribute or comment whose text is not
        // UTF-8. Every step above keeps the bytes UTF-8; this makes sure of it.
        return TextEncodingConverter.repairedUTF8(bytes) ?? bytes
    }

    /// Step 7: every `<?…?>`, the XML declaration included (the bytes are UTF-8 by now, which
    /// needs no declaration), becomes one space and the line breaks it held: the space keeps a
    /// `<` before it and a `?` after it from joining into a new instruction, the line breaks keep
    /// the parser's error positions true. An unterminated one is kept for the parser to report.
    ///
    /// The declaration can't be kept and skipped: a malformed one (`encoding=x …`) doesn't end
    /// where the parser stops reading it, so an instruction inside it would reach the parser.
    static func removingProcessingInstructions(_ bytes: [UInt8]) -> [UInt8] {
        let open: [UInt8] = [UInt8(ascii: "<"), UInt8(ascii: "?")]
        guard let first = index(of: open, in: bytes, from: 0) else { return bytes }
        var output = Array(bytes[..<first])
        output.reserveCapacity(bytes.count)
        var position = first
        while let found = index(of: open, in: bytes, from: position) {
            output += bytes[position..<found]
            guard let end = indexAfterClose(bytes, from: found + 2) else {
                position = found
                break
            }
            output.append(UInt8(ascii: " "))
            output += bytes[found..<end].filter { $0 == UInt8(ascii: "\n") }
            position = end
        }
        output += bytes[position...]
        return output
    }

    /// The index just past the next `?>` at or after `start`.
    private static func indexAfterClose(_ bytes: [UInt8], from start: Int) -> Int? {
        index(of: [UInt8(ascii: "?"), UInt8(ascii: ">")], in: bytes, from: start).map { $0 + 2 }
    }

    private static func index(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == pattern[0] && bytes[index + 1] == pattern[1] { return index }
            index += 1
        }
        return nil
    }

    /// Steps 1–3: BOM, declared encoding, UTF-8 repair.
    static func normalizeEncoding(_ input: [UInt8], log: inout RecoveryLog) throws(FeedParserError) -> [UInt8] {
        var bytes = input
        if let order = UTF32Decoder.byteOrder(bytes) {
            return declaringUTF8(try UTF32Decoder.utf8(from: bytes, bigEndian: order.bigEndian, bomLength: order.bomLength))
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes.removeFirst(3)
        } else if let order = utf16ByteOrder(bytes) {
            let body = Data(bytes.dropFirst(order.bomLength))
            let text = String(data: body, encoding: order.bigEndian ? .utf16BigEndian : .utf16LittleEndian)
            guard let text else { throw .unsupportedEncoding("UTF-16") }
            return declaringUTF8(Array(text.utf8))
        }
        guard let label = declaredEncoding(bytes) else {
            return TextEncodingConverter.repairedUTF8(bytes, log: &log) ?? bytes
        }
        if TextEncodingConverter.isUTF8Compatible(label) {
            return TextEncodingConverter.repairedUTF8(bytes, log: &log) ?? bytes
        }
        if label.hasPrefix("utf-16") || label.hasPrefix("utf16") {
            // Declared UTF-16 but no BOM, or already UTF-8 bytes: XMLParser would
            // misread either way; trust the bytes if they look like ASCII.
            return declaringUTF8(TextEncodingConverter.repairedUTF8(bytes, log: &log) ?? bytes)
        }
        guard let converted = TextEncodingConverter.convertToUTF8(bytes, from: label) else {
            throw .unsupportedEncoding(label)
        }
        return declaringUTF8(converted)
    }

    /// The byte order of a UTF-16 document, and the length of its byte-order mark: a document is
    /// UTF-16 when it starts with a mark or, without one, with `<?` written as two-byte units, as
    /// the XML specification's encoding-detection appendix describes (and as the XML parser reads
    /// it, so it must be transcoded here like the others).
    private static func utf16ByteOrder(_ bytes: [UInt8]) -> (bigEndian: Bool, bomLength: Int)? {
        if bytes.starts(with: [0xFE, 0xFF]) { return (true, 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (false, 2) }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return (true, 0) }
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return (false, 0) }
        return nil
    }

    /// The lowercased `encoding` pseudo-attribute of a leading XML declaration.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard let end = declarationEnd(bytes) else { return nil }
        let declaration = String(decoding: bytes[0..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        let value = rest.prefix { $0 != quote }
        let label = value.trimmingCharacters(in: .whitespaces).lowercased()
        return label.isEmpty ? nil : label
    }

    /// Whether the document starts with an XML declaration: `<?xml` and then white space. Without
    /// the white space (`<?xml-stylesheet …?>`, `<?xmlfoo?>`) it is a processing instruction.
    private static func startsWithDeclaration(_ bytes: [UInt8]) -> Bool {
        let whiteSpace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        return bytes.count > 5 && bytes.starts(with: Array("<?xml".utf8)) && whiteSpace.contains(bytes[5])
    }

    /// Index just past `?>` of a declaration that starts the document.
    private static func declarationEnd(_ bytes: [UInt8]) -> Int? {
        guard startsWithDeclaration(bytes) else { return nil }
        let limit = min(bytes.count, 512)
        var index = 5
        while index + 1 < limit {
            if bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ">") {
                return index + 2
            }
            index += 1
        }
        return nil
    }

    /// Replaces (or adds) the XML declaration with one that says UTF-8.
    private static func declaringUTF8(_ bytes: [UInt8]) -> [UInt8] {
        let declaration = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
        if let end = declarationEnd(bytes) {
            return declaration + bytes[end...]
        }
        return bytes
    }
}
