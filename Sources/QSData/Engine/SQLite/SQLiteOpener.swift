import CSQLite
import Foundation

/// Opens a SQLite handle and checks that the file is a database, without writing to it.
struct SQLiteOpener {
    let path: String

    /// A handle whose first read succeeded.
    /// - Throws: ``QSDataError/cannotOpenDatabase(path:reason:)`` also for a path that holds
    ///   U+FFFD (what invalid UTF-8 in a command-line argument decodes to: opening it would
    ///   create a different file from the one meant) or NUL.
    func open() throws -> OpaquePointer {
        guard !path.unicodeScalars.contains("\u{FFFD}"), !path.utf8.contains(0), !path.isEmpty else {
            throw QSDataError.cannotOpenDatabase(
                path: path, reason: "the path is empty, holds a NUL, or is not valid UTF-8 (U+FFFD stands in for bytes that were not)")
        }
        let handle = try openHandle(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
        let code = firstRead(handle)
        if code == SQLITE_OK { return handle }
        // A WAL database whose folder can't be written: SQLite can't create the shared-memory
        // index it needs beside the file, even to read. Opened immutable and read-only, it
        // needs nothing beside the file; writes then fail as writes to a read-only database.
        sqlite3_close_v2(handle)
        if code & 0xFF == SQLITE_CANTOPEN || code & 0xFF == SQLITE_READONLY {
            var uri = URLComponents()
            uri.scheme = "file"
            uri.path = path
            uri.queryItems = [URLQueryItem(name: "immutable", value: "1")]
            let immutable = try openHandle(
                uri.string ?? path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX)
            let retry = firstRead(immutable)
            if retry == SQLITE_OK { return immutable }
            sqlite3_close_v2(immutable)
            throw failure(retry)
        }
        throw failure(code)
    }

    private func openHandle(_ name: String, flags: Int32) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            var reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if !FileManager.default.fileExists(atPath: folder) {
                reason = "the folder \(folder) does not exist"
            }
            sqlite3_close(handle)
            throw QSDataError.cannotOpenDatabase(path: path, reason: reason)
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5_000)
        return handle
    }

    /// Reading the schema is the first thing that fails on a file that is not a database.
    private func firstRead(_ handle: OpaquePointer) -> Int32 {
        sqlite3_exec(handle, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
    }

    private func failure(_ code: Int32) -> any Error {
        if code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT {
            return QSDataError.notADatabase(path: path)
        }
        return QSDataError.cannotOpenDatabase(path: path, reason: String(cString: sqlite3_errstr(code)))
    }
}
