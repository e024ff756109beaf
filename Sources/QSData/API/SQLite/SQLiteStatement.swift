import CSQLite
import Foundation

/// A prepared SQLite statement: bind arguments, step through rows, read columns by index.
///
/// Statements come from ``SQLiteConnection/statement(_:)``, which caches them by SQL text, so
/// preparing the same SQL twice costs one dictionary lookup. A statement belongs to its
/// connection and, like it, is used on one thread at a time.
public final class SQLiteStatement {
    /// The SQL text this statement was prepared from.
    public let sql: String
    @usableFromInline let handle: OpaquePointer
    unowned let connection: SQLiteConnection

    init(sql: String, connection: SQLiteConnection) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw connection.error(code: code, sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of `?` parameters in the SQL.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// The number of columns each row has.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of the column at `index` (0-based).
    public func columnName(at index: Int32) -> String {
        guard let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    // MARK: Binding

    /// Resets the statement and binds `arguments` to its parameters, in order.
    public func bind(_ arguments: [SQLValue]) throws {
        try bind(RowValues(arguments))
    }

    /// Resets the statement and binds one row a save encoded (or a list, as a row) to its parameters.
    func bind(_ row: RowValues) throws {
        reset()
        try checkParameterCount(row.count)
        // The switch on each value's kind is inlined here: a save binds every column of every row.
        for index in row.indices {
            let code = bindValue(row[index], at: Int32(index + 1))
            guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
        }
    }

    /// Resets the statement and binds the values of `row` at `positions`, then the one at
    /// `last`, to its parameters in that order: an `UPDATE` of some columns of a row, found by
    /// another.
    func bind(_ row: RowValues, columnsAt positions: [Int], then last: Int) throws {
        reset()
        try checkParameterCount(positions.count + 1)
        for (parameter, position) in positions.enumerated() {
            let code = bindValue(row[position], at: Int32(parameter + 1))
            guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
        }
        let code = bindValue(row[last], at: parameterCount)
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
    }

    /// Throws when the statement does not take `count` arguments.
    private func checkParameterCount(_ count: Int) throws {
        guard count == Int(parameterCount) else {
            throw SQLiteError(
                code: SQLITE_RANGE, message: "the statement has \(parameterCount) parameters but \(count) arguments were given", sql: sql)
        }
    }

    /// Binds one value to the parameter at `index` (1-based, as in SQLite).
    public func bind(_ value: SQLValue, at index: Int32) throws {
        let code = bindValue(value, at: index)
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
    }

    /// Binds one value; returns SQLite's result code.
    @inline(__always)
    private func bindValue(_ value: SQLValue, at index: Int32) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer(let integer):
            return sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            return sqlite3_bind_double(handle, index, real)
        case .text(let text) where text.isEmpty:
            return sqlite3_bind_text(handle, index, "", 0, nil)
        case .text(let text):
            // Read in place when the string is stored as UTF-8, as Swift's own strings are: no copy of it.
            if let bound = text.utf8.withContiguousStorageIfAvailable({ bindText($0, at: index) }) { return bound }
            var contiguous = text
            return contiguous.withUTF8 { bindText($0, at: index) }
        case .blob(let data) where data.isEmpty:
            return sqlite3_bind_zeroblob(handle, index, 0)
        case .blob(let data):
            return data.withUnsafeBytes { bytes in
                sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
            }
        }
    }

    /// Binds UTF-8 text, which SQLite copies.
    @inline(__always)
    private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        bytes.withMemoryRebound(to: CChar.self) { chars in
            sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), csqlite_transient())
        }
    }

    // MARK: Stepping

    /// Makes the statement ready to run again; bound values are kept.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Advances to the next row. Returns `false` when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds `arguments` and runs the statement to completion, ignoring any rows.
    public func run(_ arguments: [SQLValue] = []) throws {
        try bind(arguments)
        while try step() {}
        reset()
    }

    // MARK: Reading columns of the current row

    /// Whether the column at `index` of the current row is NULL.
    @inlinable public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The column at `index` as an integer (SQLite converts other storage classes).
    @inlinable public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The column at `index` as a double (SQLite converts other storage classes).
    @inlinable public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The column at `index` as text, or nil when it is NULL.
    @inlinable public func text(at index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column at `index` as bytes, or nil when it is NULL.
    @inlinable public func data(at index: Int32) -> Data? {
        if sqlite3_column_type(handle, index) == SQLITE_NULL { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The column at `index` in its own storage class.
    public func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        case SQLITE_BLOB: return .blob(data(at: index) ?? Data())
        default: return .null
        }
    }
}
