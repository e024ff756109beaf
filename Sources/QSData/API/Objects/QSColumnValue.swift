import CSQLite
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
    /// Reads the value, or nil when the column is NULL. The default asks SQLite for the
    /// column's type first; types that can tell NULL more cheaply override it.
    static func readIfPresent(from row: QSRow, at index: Int) throws -> Self?
}

extension QSColumnValue {
    @inlinable public static func readIfPresent(from row: QSRow, at index: Int) throws -> Self? {
        if row.isNull(at: index) { return nil }
        return try read(from: row, at: index)
    }
}

extension Int64: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Int64 {
        guard row.storageClass(at: index) == SQLITE_INTEGER else { throw row.storageError(at: index, expected: Int64.self) }
        return row.int64(at: index)
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .integer(self) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .int64 }
}

extension Int: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Int {
        Int(truncatingIfNeeded: try Int64.read(from: row, at: index))
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .integer(Int64(self)) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .int64 }
}

extension Double: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Double {
        // A column of NUMERIC affinity stores a whole number as an integer.
        let storage = row.storageClass(at: index)
        guard storage == SQLITE_FLOAT || storage == SQLITE_INTEGER else { throw row.storageError(at: index, expected: Double.self) }
        return row.double(at: index)
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .real(self) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .double }
}

extension Bool: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Bool {
        try Int64.read(from: row, at: index) != 0
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .integer(self ? 1 : 0) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .boolean }
}

extension String: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> String {
        guard row.storageClass(at: index) == SQLITE_TEXT, let text = row.text(at: index) else {
            throw row.storageError(at: index, expected: String.self)
        }
        return text
    }
    /// One look at the storage class tells NULL, text and a value of the wrong kind apart.
    @inlinable public static func readIfPresent(from row: QSRow, at index: Int) throws -> String? {
        switch row.storageClass(at: index) {
        case SQLITE_TEXT: return row.text(at: index)
        case SQLITE_NULL: return nil
        default: throw row.storageError(at: index, expected: String.self)
        }
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .text(self) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .string }
}

extension Data: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Data {
        guard row.storageClass(at: index) == SQLITE_BLOB, let data = row.data(at: index) else {
            throw row.storageError(at: index, expected: Data.self)
        }
        return data
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .blob(self) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .data }
}

/// Dates are stored as REAL seconds since 1970, which keeps milliseconds exact enough for sync.
extension Date: QSColumnValue {
    @inlinable public static func read(from row: QSRow, at index: Int) throws -> Date {
        Date(timeIntervalSince1970: try Double.read(from: row, at: index))
    }
    @inlinable public func columnValue(as type: QSPropertyType) -> SQLValue { .real(timeIntervalSince1970) }
    public static func canStore(_ type: QSPropertyType) -> Bool { type == .date }
}

extension URL: QSColumnValue {
    public static func read(from row: QSRow, at index: Int) throws -> URL {
        let text = try String.read(from: row, at: index)
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
        try Wrapped.readIfPresent(from: row, at: index)
    }
    @inlinable public func columnValue(as type: QSPropertyType) throws -> SQLValue {
        guard let self else { return .null }
        return try self.columnValue(as: type)
    }
    public static func canStore(_ type: QSPropertyType) -> Bool { Wrapped.canStore(type) }
}

/// Column values that hold NULL as a value of their own: optionals and raw values.
protocol NullableColumnValue {}
extension Optional: NullableColumnValue where Wrapped: QSColumnValue {}
extension SQLValue: NullableColumnValue {}

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
