/// Decodes HTML character references (`&amp;`, `&#8217;`, `&#x2019;`, `&nbsp;`)
/// in text that feeds deliver HTML-escaped, such as titles.
///
/// Unknown or unterminated references are kept verbatim.
public enum HTMLEntityDecoder {
    /// Returns `text` with every recognised character reference replaced.
    public static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var output = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "&", let (decoded, length) = reference(in: scalars, at: index) {
                output.append(decoded)
                index += length
            } else {
                output.append(scalar)
                index += 1
            }
        }
        return String(output)
    }

    /// Parses the reference starting with `&` at `start`; returns the scalar
    /// and the number of scalars consumed, including `&` and `;`.
    private static func reference(in scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        let maxLength = 32
        var end = start + 1
        while end < scalars.count, end - start <= maxLength, scalars[end] != ";" {
            end += 1
        }
        guard end < scalars.count, scalars[end] == ";", end > start + 1 else { return nil }
        let body = String(String.UnicodeScalarView(scalars[(start + 1)..<end]))
        let length = end - start + 1
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value, let scalar = Unicode.Scalar(value), value != 0 else { return nil }
            return (scalar, length)
        }
        guard let value = HTMLEntityTable.codePoint(named: body),
              let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
