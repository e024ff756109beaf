import QSData

/// An SQL identifier in double quotes.
func quoted(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

extension SyncID {
    /// The ID as a column value.
    var sqlValue: SQLValue {
        switch self {
        case .integer(let value): .integer(value)
        case .string(let value): .text(value)
        }
    }

    /// The ID a uniqueID column holds; nil for a value no uniqueID can be.
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self = .integer(value)
        case .text(let value): self = .string(value)
        default: return nil
        }
    }

    /// Whether the ID fits a table whose uniqueIDs are of `type`.
    func fits(_ type: QSPropertyType) -> Bool {
        switch self {
        case .integer: type == .int64
        case .string: type == .string
        }
    }
}

extension SyncValue {
    /// A column's value as it travels.
    init(column: SQLValue) {
        switch column {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }

    /// The value to store in a column of `type`: whole numbers become reals again for `double`
    /// and `date`, and integral reals integers for `int64` and `boolean`. Nil for a list of IDs or
    /// a blob reference, which no column holds.
    func column(of type: QSPropertyType) -> SQLValue? {
        switch (self, type) {
        case (.null, _): .null
        case (.integer(let value), .double), (.integer(let value), .date): .real(Double(value))
        case (.integer(let value), _): .integer(value)
        case (.real(let value), .int64), (.real(let value), .boolean):
            value == value.rounded() && abs(value) < 9.2e18 ? .integer(Int64(value)) : .real(value)
        case (.real(let value), _): .real(value)
        case (.text(let value), _): .text(value)
        case (.blob(let value), _): .blob(value)
        case (.ids, _), (.blobReference, _): nil
        }
    }
}

import CSQLite

extension SQLiteError {
    /// Whether a constraint (NOT NULL, UNIQUE, CHECK…) refused the statement.
    var isConstraintViolation: Bool { code & 0xFF == SQLITE_CONSTRAINT }
}
