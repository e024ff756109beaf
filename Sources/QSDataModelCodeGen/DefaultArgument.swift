import Foundation
import QSData

/// A property's default argument in the memberwise initializer: the column's SQL `DEFAULT`
/// written as a Swift value, so that leaving the argument out saves what an `INSERT` leaving the
/// column out would store.
///
/// Literals become values of the property's Swift type: a number for `Int64`, `Int` and `Double`,
/// `0`/`1` (or `FALSE`/`TRUE`) for `Bool`, a number of seconds since 1970 for `Date`, a quoted
/// string for `String`. A default that is not such a literal (an expression such as
/// `CURRENT_TIMESTAMP`, a blob, a value for a Swift type of the app's own) gives no default
/// argument. An optional without a usable default defaults to `nil`.
enum DefaultArgument {
    static func swift(for sql: String?, of property: QSPropertyDescription, swiftType: String) -> String? {
        let fallback = property.isOptional ? "nil" : nil
        guard let sql else { return fallback }
        let literal = unparenthesized(sql.trimmingCharacters(in: .whitespaces))
        if literal.uppercased() == "NULL" { return fallback }
        return value(of: literal, as: property.type, swiftType: bareName(swiftType)) ?? fallback
    }

    /// The literal as a value of the Swift type, or nil when it is not one.
    private static func value(of literal: String, as type: QSPropertyType, swiftType: String) -> String? {
        switch (type, swiftType) {
        case (.int64, "Int64"), (.int64, "Int"):
            return integer(literal)
        case (.double, "Double"):
            return number(literal)
        case (.boolean, "Bool"):
            switch integer(literal) ?? literal.uppercased() {
            case "0", "FALSE": return "false"
            case "1", "TRUE": return "true"
            default: return nil
            }
        case (.date, "Date"):
            return number(literal).map { "Date(timeIntervalSince1970: \($0))" }
        case (.string, "String"):
            return text(literal).map(swiftStringLiteral)
        default:
            return nil
        }
    }

    /// `-12` or `+3` as a Swift integer literal.
    private static func integer(_ literal: String) -> String? {
        guard literal.wholeMatch(of: /[+-]?[0-9]+/) != nil else { return nil }
        return literal.hasPrefix("+") ? String(literal.dropFirst()) : literal
    }

    /// An integer or a decimal number (`0.5`, `-2.5e3`) as a Swift floating-point literal.
    private static func number(_ literal: String) -> String? {
        guard literal.wholeMatch(of: /[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil else { return nil }
        return literal.hasPrefix("+") ? String(literal.dropFirst()) : literal
    }

    /// The text of an SQL string literal (`'it''s'`), or nil when `literal` is not one.
    private static func text(_ literal: String) -> String? {
        guard literal.count >= 2, literal.hasPrefix("'"), literal.hasSuffix("'") else { return nil }
        let inner = literal.dropFirst().dropLast()
        let text = inner.replacingOccurrences(of: "''", with: "'")
        // A lone quote inside would mean the literal ended earlier: an expression, not a string.
        guard !inner.replacingOccurrences(of: "''", with: "").contains("'") else { return nil }
        return text
    }

    private static func swiftStringLiteral(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }

    /// `(0)` and `((0))` as `0`: SQLite keeps a default's parentheses.
    private static func unparenthesized(_ sql: String) -> String {
        var sql = sql
        while sql.hasPrefix("("), sql.hasSuffix(")") {
            sql = String(sql.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return sql
    }

    /// The type's name without a `Swift.` or `Foundation.` module prefix.
    private static func bareName(_ swiftType: String) -> String {
        for module in ["Swift.", "Foundation."] where swiftType.hasPrefix(module) {
            return String(swiftType.dropFirst(module.count))
        }
        return swiftType
    }
}
