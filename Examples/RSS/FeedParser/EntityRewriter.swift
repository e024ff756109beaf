/// Rewrites entity references that `XMLParser` would drop or reject, so that no text is lost:
///
/// - named entities, HTML's (`&nbsp;`, `&eacute;` …) and XML's own (`&amp;`, `&lt;` …), become
///   numeric references: libxml2 drops XML's own from the text after any error it recovers
///   from, but never a numeric reference;
/// - internal entities the document declares with a plain value (`<!ENTITY co "Company">`) are
///   replaced by that value;
/// - references nothing can expand — undeclared names and external (`SYSTEM`/`PUBLIC`)
///   entities, which are never fetched — are kept as literal text (`&#38;ext;`), so the text
///   after them survives;
/// - an `&` that starts no reference at all (`Tom & Jerry`, `&nbsp` without its semicolon) is
///   escaped, so it reads as the text it is, and logged as a ``FeedParseWarning/Problem/bareAmpersand``;
/// - a character reference to a character XML does not allow (`&#11;`) is replaced like the raw
///   character would be (``ForbiddenCharacters``), and logged; one XML can't read as written
///   (`&#X41;`, with a capital X, which HTML reads) is written the way XML reads it.
///
/// Declared entities whose value contains markup or further references are left to the XML
/// parser, which expands them or refuses the document (that is how entity bombs are refused).
/// Comments, CDATA sections and the DOCTYPE itself are copied unchanged.
enum EntityRewriter {
    /// The most bytes expanding declared entities may add to a document.
    static let maximumExpansion = 4 * 1024 * 1024

    /// The rewritten bytes, or `nil` when nothing needed rewriting.
    static func rewrite(_ bytes: [UInt8], log: inout RecoveryLog) throws(FeedParserError) -> [UInt8]? {
        var scanner = Scanner(bytes: bytes, log: log)
        let rewritten = try scanner.run()
        log = scanner.log
        return rewritten
    }

    /// What an entity name stands for in this document.
    private enum Replacement {
        /// Text to splice in: a declared entity's plain value, or the escaped literal.
        case bytes([UInt8])
        /// A character, written as a numeric reference: an HTML or predefined XML entity.
        case character(UInt32)
        /// Left for the XML parser (a declared value with markup).
        case keep
    }

    private struct Scanner {
        let bytes: [UInt8]
        var output: [UInt8] = []
        var copiedUpTo = 0
        var added = 0
        /// Internal entities the DOCTYPE declares, by name: their value, or `nil` when it has
        /// markup or references. External entities are absent, like undeclared ones.
        var declared: [String: [UInt8]?] = [:]
        var log: RecoveryLog

        init(bytes: [UInt8], log: RecoveryLog) {
            self.bytes = bytes
            self.log = log
        }

        mutating func run() throws(FeedParserError) -> [UInt8]? {
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") {
                    index = skipMarkupDeclaration(at: index)
                    continue
                }
                guard byte == UInt8(ascii: "&") else { index += 1; continue }
                switch reference(at: index) {
                case .named(let name, let end):
                    switch replacement(for: name) {
                    case .bytes(let replacement): try splice(replacement, from: index, to: end)
                    case .character(let value): copy(Self.characterReference(value), from: index, to: end)
                    case .keep: break
                    }
                    index = end
                case .character(let value, let end, let isCanonical):
                    if let replacement = ForbiddenCharacters.replacement(for: value) {
                        log.note(.forbiddenCharacter, at: index, in: bytes)
                        copy(replacement, from: index, to: end)
                    } else if !isCanonical {
                        copy(Self.characterReference(value), from: index, to: end)
                    }
                    index = end
                case .none:
                    log.note(.bareAmpersand, at: index, in: bytes)
                    copy(Self.ampersand, from: index, to: index + 1)
                    index += 1
                }
            }
            guard copiedUpTo > 0 else { return nil }
            output.append(contentsOf: bytes[copiedUpTo...])
            return output
        }

        private func replacement(for name: String) -> Replacement {
            if let declaration = declared[name] {
                guard let value = declaration else { return .keep }
                return .bytes(value)
            }
            if let codePoint = HTMLEntityTable.codePoint(named: name) {
                return .character(UInt32(codePoint))
            }
            return .bytes(Self.ampersand + Array("\(name);".utf8))
        }

        /// `&` as a character reference: after an error it recovers from, libxml2 drops the
        /// predefined entities (`&amp;`, `&lt;` …) from the text, but never a character reference.
        static let ampersand = Array("&#38;".utf8)

        /// `&#123;`, the one spelling of a character reference every XML parser reads.
        static func characterReference(_ value: UInt32) -> [UInt8] {
            Array("&#\(value);".utf8)
        }

        /// What the `&` at `index` starts.
        private enum Reference {
            /// `&name;`; `end` is the index after the semicolon.
            case named(String, end: Int)
            /// `&#123;` or `&#x7B;`, with the value it names; not canonical when XML would refuse
            /// its spelling (`&#X7B;`).
            case character(UInt32, end: Int, isCanonical: Bool)
        }

        private func reference(at index: Int) -> Reference? {
            let count = bytes.count
            var end = index + 1
            if end < count, bytes[end] == UInt8(ascii: "#") {
                end += 1
                let isUpperX = end < count && bytes[end] == UInt8(ascii: "X")
                let hex = isUpperX || (end < count && bytes[end] == UInt8(ascii: "x"))
                if hex { end += 1 }
                let digitsStart = end
                var value: UInt64 = 0
                while end < count, end - digitsStart < 16, let digit = Self.digit(bytes[end], hex: hex) {
                    value = value * (hex ? 16 : 10) + UInt64(digit)
                    end += 1
                }
                guard end > digitsStart, end < count, bytes[end] == UInt8(ascii: ";") else { return nil }
                return .character(UInt32(clamping: value), end: end + 1, isCanonical: !isUpperX)
            }
            while end < count, end - index <= 64, Self.isNameByte(bytes[end]) { end += 1 }
            guard end < count, bytes[end] == UInt8(ascii: ";"), end > index + 1 else { return nil }
            return .named(String(decoding: bytes[(index + 1)..<end], as: UTF8.self), end: end + 1)
        }

        private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }

        /// Splices in what an entity expands to, counting it against ``maximumExpansion``.
        private mutating func splice(_ replacement: [UInt8], from start: Int, to end: Int) throws(FeedParserError) {
            added += replacement.count - (end - start)
            if added > EntityRewriter.maximumExpansion {
                throw .entityExpansionTooLarge(limit: EntityRewriter.maximumExpansion)
            }
            copy(replacement, from: start, to: end)
        }

        /// Replaces `bytes[start..<end]` with `replacement` in the output. Repairs use this
        /// directly: they grow the document by a few bytes per character of it at most.
        private mutating func copy(_ replacement: [UInt8], from start: Int, to end: Int) {
            if output.isEmpty { output.reserveCapacity(bytes.count + 256) }
            output.append(contentsOf: bytes[copiedUpTo..<start])
            output.append(contentsOf: replacement)
            copiedUpTo = end
        }

        /// At a `<`: skips a comment, CDATA section or DOCTYPE (reading its entity declarations)
        /// and returns the index after it; any other `<` is passed over.
        private mutating func skipMarkupDeclaration(at index: Int) -> Int {
            if starts(with: "<!--", at: index) { return skip(past: "-->", from: index + 4) }
            if starts(with: "<![CDATA[", at: index) { return skip(past: "]]>", from: index + 9) }
            if starts(with: "<!DOCTYPE", at: index) {
                let end = doctypeEnd(from: index)
                readEntityDeclarations(bytes[index..<end])
                return end
            }
            return index + 1
        }

        private func starts(with prefix: String, at index: Int) -> Bool {
            bytes[index...].starts(with: prefix.utf8)
        }

        private func skip(past terminator: String, from start: Int) -> Int {
            let pattern = Array(terminator.utf8)
            var index = start
            while index + pattern.count <= bytes.count {
                if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                    return index + pattern.count
                }
                index += 1
            }
            return bytes.count
        }

        /// The index after the DOCTYPE's closing `>`, past an internal subset in brackets and
        /// quoted values.
        private func doctypeEnd(from start: Int) -> Int {
            var index = start + 1
            var inSubset = false
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    inSubset = true
                } else if byte == UInt8(ascii: "]") {
                    inSubset = false
                } else if byte == UInt8(ascii: ">"), !inSubset {
                    return index + 1
                }
                index += 1
            }
            return bytes.count
        }

        /// Records `<!ENTITY name "value">` declarations (general entities only; parameter
        /// entities, `%`, are the DTD's own business).
        private mutating func readEntityDeclarations(_ doctype: ArraySlice<UInt8>) {
            let text = String(decoding: doctype, as: UTF8.self)
            for declaration in text.components(separatedBy: "<!ENTITY").dropFirst() {
                let words = declaration.split(maxSplits: 1, whereSeparator: \.isWhitespace)
                guard words.count == 2, words[0] != "%" else { continue }
                let name = String(words[0])
                let rest = words[1].drop(while: \.isWhitespace)
                guard let quote = rest.first, quote == "\"" || quote == "'" else {
                    declared[name] = nil  // SYSTEM or PUBLIC: external, never fetched
                    continue
                }
                let value = rest.dropFirst().prefix { $0 != quote }
                declared[name] = value.contains("&") || value.contains("<") || value.contains("%")
                    ? .some(nil)
                    : .some(Array(value.replacingOccurrences(of: "\"", with: "&quot;")
                                       .replacingOccurrences(of: "'", with: "&apos;").utf8))
            }
        }

        private static func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":")
        }
    }
}
