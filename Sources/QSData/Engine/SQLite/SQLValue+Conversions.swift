import CSQLite
import Foundation

/// SQLite's own conversions between storage classes, for rows made of values.
extension SQLValue {
    /// The storage class SQLite would report for this value (`SQLITE_INTEGER`, `SQLITE_NULL`…).
    @usableFromInline var storageClass: Int32 {
        switch self {
        case .null: return SQLITE_NULL
        case .integer: return SQLITE_INTEGER
        case .real: return SQLITE_FLOAT
        case .text: return SQLITE_TEXT
        case .blob: return SQLITE_BLOB
        }
    }

    @usableFromInline var int64: Int64 {
        switch self {
        case .null: return 0
        case .integer(let value): return value
        case .real(let value): return Int64(exactly: value.rounded(.towardZero)) ?? 0
        case .text(let value): return Int64(value) ?? 0
        case .blob: return 0
        }
    }

    @usableFromInline var double: Double {
        switch self {
        case .null, .blob: return 0
        case .integer(let value): return Double(value)
        case .real(let value): return value
        case .text(let value): return Double(value) ?? 0
        }
    }

    @usableFromInline var text: String? {
        switch self {
        case .null: return nil
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return value
        case .blob(let value): return String(decoding: value, as: UTF8.self)
        }
    }

    @usableFromInline var data: Data? {
        switch self {
        case .null: return nil
        case .blob(let value): return value
        default: return text.map { Data($0.utf8) }
        }
    }
}
