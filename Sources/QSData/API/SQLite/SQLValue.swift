import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// Arguments to raw SQL and to bulk updates are `SQLValue`s; literals convert directly:
/// ```swift
/// let arguments: [SQLValue] = [1, "ice cream", 2.5, true, .null]
/// ```
/// (`nil` is deliberately not a literal for `.null`: in an `SQLValue?` it would be ambiguous.)
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLValue: CustomStringConvertible {
    /// The value written the way SQL would spell it, for messages and logs.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return enclosed(value, in: "'")
        case .blob(let value): return "x'" + value.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
