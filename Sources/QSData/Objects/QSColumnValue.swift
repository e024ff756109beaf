import Foundation

/// A Swift type that can be stored in a column: `Int64`, `Int`, `Double`, `Bool`, `String`,
/// `Data`, `Date`, `URL`, optionals of these, and `Codable` arrays, dictionaries and
/// ``QSStructuredValue`` types for `plist` and `json` properties.
public protocol QSColumnValue {
    /// Reads the value from the column at `index` of `row`.
    static func read(from row: QSRow, at index: Int) throws -> Self
    /// The value to store in a column whose model type is `type`.
    func columnValue(as type: QSPropertyType) throws -> SQLValue
    /// Whether a property of the model type `type` can hold this Swift type.
    static func canStore(_ type: QSPropertyType) -> Bool
}

extension Int64: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Int64 {
        if row.isNull(at: index) { throw row.nullError(at: index) }
        return row.int64(at: index)
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .integer(self) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .int64 }
}

extension Int: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Int {
        if row.isNull(at: index) { throw row.nullError(at: index) }
        return Int(truncatingIfNeeded: row.int64(at: index))
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .integer(Int64(self)) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .int64 }
}

extension Double: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Double {
        if row.isNull(at: index) { throw row.nullError(at: index) }
        return row.double(at: index)
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .real(self) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .double }
}

extension Bool: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Bool {
        if row.isNull(at: index) { throw row.nullError(at: index) }
        return row.int64(at: index) != 0
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .integer(self ? 1 : 0) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .boolean }
}

extension String: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> String {
        guard let text = row.text(at: index) else { throw row.nullError(at: index) }
        return text
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .text(self) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .string }
}

extension Data: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Data {
        guard let data = row.data(at: index) else { throw row.nullError(at: index) }
        return data
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .blob(self) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .data }
}

/// Dates are stored as REAL seconds since 1970, which keeps milliseconds exact enough for sync.
extension Date: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Date {
        if row.isNull(at: index) { throw row.nullError(at: index) }
        return Date(timeIntervalSince1970: row.double(at: index))
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .real(timeIntervalSince1970) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .date }
}

extension URL: QSColumnValue {
    public static func read(from row: QSRow, at index: Int) throws -> URL {
        guard let text = row.text(at: index) else { throw row.nullError(at: index) }
        guard let url = URL(string: text) else {
            throw row.conversionError(at: index, expected: URL.self, found: "'\(text)'")
        }
        return url
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .text(absoluteString) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .string }
}

extension Optional: QSColumnValue where Wrapped: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Wrapped? {
        if row.isNull(at: index) { return nil }
        return try Wrapped.read(from: row, at: index)
    }
    @inlinable public func columnValue(as type: QSPropertyType) throws -> SQLValue {
        guard let self else { return .null }
        return try self.columnValue(as: type)
    }
    public static func canStore(_ type: QSPropertyType) -> Bool { Wrapped.canStore(type) }
}

/// Raw values pass through unchanged, for bulk updates that set NULL or a precomputed value.
extension SQLValue: QSColumnValue {
    public static func read(from row: QSRow, at index: Int) throws -> SQLValue {
        if row.isNull(at: index) { return .null }
        switch row.propertyType(at: index) {
        case .int64, .boolean: return .integer(row.int64(at: index))
        case .double, .date: return .real(row.double(at: index))
        case .string, .json: return row.text(at: index).map { .text($0) } ?? .null
        case .data, .plist: return row.data(at: index).map { .blob($0) } ?? .null
        }
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { self }
    public static func canStore(_ type: QSPropertyType) -> Bool { true }
}
