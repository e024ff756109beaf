import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts legacy-encoded bytes (GB2312, windows-1252, ISO-8859-x, …) to UTF-8
/// with the C library's `iconv`, which is available on Linux and Apple platforms
/// alike, unlike the CoreFoundation encoding tables.
enum TextEncodingConverter {
    /// Encoding labels that name a superset which decodes real-world data better
    /// (as browsers do): GB2312 pages routinely contain GBK characters, and
    /// ISO-8859-1 pages routinely contain windows-1252 punctuation.
    private static let supersets: [String: String] = [
        "gb2312": "GB18030", "gbk": "GB18030", "x-gbk": "GB18030", "cp936": "GB18030",
        "iso-8859-1": "WINDOWS-1252", "iso8859-1": "WINDOWS-1252", "latin1": "WINDOWS-1252",
        "big5": "BIG5-HKSCS", "shift_jis": "CP932", "x-sjis": "CP932",
    ]

    /// Returns `true` when `label` is an encoding `XMLParser` reads natively and
    /// the bytes can be handed over unchanged.
    static func isUTF8Compatible(_ label: String) -> Bool {
        ["utf-8", "utf8", "us-ascii", "ascii"].contains(label)
    }

    /// Converts `bytes` from the encoding named `label` to UTF-8.
    /// Undecodable byte sequences become U+FFFD. Returns `nil` when the
    /// encoding is unknown to `iconv`.
    static func convertToUTF8(_ bytes: [UInt8], from label: String) -> [UInt8]? {
        let name = supersets[label] ?? label.uppercased()
        let descriptor = iconv_open("UTF-8", name)
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(descriptor) }

        var output = [UInt8]()
        output.reserveCapacity(bytes.count * 3 / 2 + 16)
        var input = bytes
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)

        input.withUnsafeMutableBufferPointer { inBuffer in
            chunk.withUnsafeMutableBufferPointer { outBuffer in
                guard let inBase = inBuffer.baseAddress, let outBase = outBuffer.baseAddress else { return }
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBase)
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                while inLeft > 0 {
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBase)
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = chunkSize
                    let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    output.append(contentsOf: UnsafeBufferPointer(start: outBase, count: chunkSize - outLeft))
                    if result == -1 {
                        let code = errno
                        if code == E2BIG { continue }
                        // EILSEQ or EINVAL: skip one byte, mark the damage, go on.
                        output.append(contentsOf: replacement)
                        inPointer = inPointer.map { $0 + 1 }
                        inLeft -= 1
                    }
                }
            }
        }
        return output
    }

    /// Checks that `bytes` are valid UTF-8. If not, returns a repaired copy in
    /// which every invalid byte is read as windows-1252 (the usual cause of
    /// "UTF-8" feeds with stray bytes); returns `nil` when no repair is needed.
    static func repairedUTF8(_ bytes: [UInt8]) -> [UInt8]? {
        var log = RecoveryLog()
        return repairedUTF8(bytes, log: &log)
    }

    /// ``repairedUTF8(_:)``, logging each byte it had to read as windows-1252.
    ///
    /// A document in which most non-ASCII bytes are not UTF-8 is not UTF-8 with a few stray
    /// bytes but another encoding it failed to declare: all of it is read as windows-1252, so
    /// that the few runs that happen to be valid UTF-8 don't turn into unrelated characters.
    static func repairedUTF8(_ bytes: [UInt8], log: inout RecoveryLog) -> [UInt8]? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        let readsAllAsWindows1252 = isMostlyNotUTF8(bytes)
        var output = [UInt8]()
        output.reserveCapacity(bytes.count + 64)
        var index = 0
        while index < bytes.count {
            let length = readsAllAsWindows1252 && bytes[index] >= 0x80 ? 0 : validSequenceLength(bytes, at: index)
            if length > 0 {
                output.append(contentsOf: bytes[index..<(index + length)])
                index += length
            } else {
                log.note(.invalidUTF8, at: index, in: bytes)
                let scalar = Windows1252.scalar(for: bytes[index])
                output.append(contentsOf: Array(String(Character(scalar)).utf8))
                index += 1
            }
        }
        return output
    }

    /// Whether the invalid bytes outnumber the valid multi-byte sequences.
    private static func isMostlyNotUTF8(_ bytes: [UInt8]) -> Bool {
        var valid = 0
        var invalid = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] >= 0x80 else {
                index += 1
                continue
            }
            let length = validSequenceLength(bytes, at: index)
            if length > 0 {
                valid += 1
                index += length
            } else {
                invalid += 1
                index += 1
            }
        }
        return invalid > valid
    }

    /// Length of the well-formed UTF-8 sequence at `index`, or 0.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        let slice = bytes[index..<(index + length)]
        return String(validating: slice, as: UTF8.self) == nil ? 0 : length
    }
}
