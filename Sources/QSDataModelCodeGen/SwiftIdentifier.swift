/// Whether a name from the data model can name a Swift type or property as it is.
enum SwiftIdentifier {
    /// Words Swift reserves: a declaration would need backquotes to use them.
    static let keywords: Set = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try",
    ]

    /// Why `name` can't be used, or nil when it can.
    static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "is empty" }
        let isLetter = { (scalar: Unicode.Scalar) in scalar == "_" || (scalar.isASCII && scalar.properties.isAlphabetic) }
        let isLetterOrDigit = { (scalar: Unicode.Scalar) in isLetter(scalar) || ("0"..."9").contains(scalar) }
        guard isLetter(first), name.unicodeScalars.allSatisfy(isLetterOrDigit) else {
            return "is not a Swift identifier (ASCII letters, digits and _, not starting with a digit)"
        }
        if keywords.contains(name) { return "is a Swift keyword" }
        return nil
    }
}
