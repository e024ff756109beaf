import CSQLiteBench
import Foundation

/// An error from the raw sqlite3 implementations.
struct RawSQLiteError: Error, CustomStringConvertible {
    let description: String
}

/// The thinnest wrapper the raw sqlite3 benchmarks need: open with the same pragmas as QSData,
/// run scripts, prepare statements. Everything else they do with the C API directly.
final class RawDatabase {
    let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw RawSQLiteError(description: "can't open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        self.handle = handle
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA temp_store = MEMORY")
        // Read the schema now, as QSData and GRDB do when they open, so that the first timed
        // statement does not pay for it.
        try execute("SELECT count(*) FROM sqlite_master")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    static var version: String { String(cString: sqlite3_libversion()) }

    /// Runs one or more statements without arguments, ignoring rows.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "error \(code)"
            sqlite3_free(message)
            throw RawSQLiteError(description: "\(text) in \(sql.prefix(120))")
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw RawSQLiteError(description: "\(errorMessage) in \(sql)")
        }
        return statement
    }

    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Steps a statement that returns no rows; throws unless it is done.
    func stepDone(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw RawSQLiteError(description: errorMessage) }
    }

    /// Steps a query: true for a row, false when done, throws on error.
    func stepRow(_ statement: OpaquePointer) throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw RawSQLiteError(description: errorMessage)
        }
    }
}

// Column and binding helpers: the inlinable one-liners an expert writes once.

@inline(__always) func rawText(_ statement: OpaquePointer, _ index: Int32) -> String? {
    guard let bytes = sqlite3_column_text(statement, index) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
}

@inline(__always) func rawOptionalDate(_ statement: OpaquePointer, _ index: Int32) -> Date? {
    sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : Date(timeIntervalSince1970: sqlite3_column_double(statement, index))
}

@inline(__always) func rawBlob(_ statement: OpaquePointer, _ index: Int32) -> Data? {
    guard let bytes = sqlite3_column_blob(statement, index) else { return nil }
    return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, index)))
}

@inline(__always) func rawBind(_ statement: OpaquePointer, _ index: Int32, _ text: String?) {
    guard let text else {
        sqlite3_bind_null(statement, index)
        return
    }
    var copy = text
    copy.withUTF8 { bytes in
        _ = bytes.withMemoryRebound(to: CChar.self) { chars in
            sqlite3_bind_text(statement, index, chars.baseAddress, Int32(chars.count), csqlitebench_transient())
        }
    }
}

@inline(__always) func rawBind(_ statement: OpaquePointer, _ index: Int32, _ date: Date?) {
    if let date {
        sqlite3_bind_double(statement, index, date.timeIntervalSince1970)
    } else {
        sqlite3_bind_null(statement, index)
    }
}

@inline(__always) func rawBind(_ statement: OpaquePointer, _ index: Int32, _ data: Data?) {
    guard let data else {
        sqlite3_bind_null(statement, index)
        return
    }
    data.withUnsafeBytes { bytes in
        _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), csqlitebench_transient())
    }
}

/// A JSON array of integer IDs for `json_each(?)`: one bound argument for any number of IDs.
func jsonArray(_ ids: [Int64]) -> String {
    var json = "["
    json.reserveCapacity(ids.count * 8 + 2)
    for (offset, id) in ids.enumerated() {
        if offset > 0 { json += "," }
        json += String(id)
    }
    json += "]"
    return json
}

/// A JSON array of string IDs (the benchmark's IDs need no escaping beyond quotes).
func jsonArray(_ ids: [String]) -> String {
    var json = "["
    for (offset, id) in ids.enumerated() {
        if offset > 0 { json += "," }
        json += "\"" + id.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    json += "]"
    return json
}
