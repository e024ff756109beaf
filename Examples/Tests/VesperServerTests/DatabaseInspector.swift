import Foundation
import QSData

typealias SQLValueForTests = SQLValue

/// Opens the server's SQLite file directly, to check what is stored at rest.
struct DatabaseInspector {
    let path: String

    func rows(_ sql: String, _ arguments: [SQLValue] = []) throws -> [[SQLValue]] {
        let connection = try SQLiteConnection(path: path)
        return try connection.fetchRows(sql, arguments)
    }

    func count(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64 {
        guard case .integer(let value) = try rows(sql, arguments).first?.first else { return -1 }
        return value
    }
}
