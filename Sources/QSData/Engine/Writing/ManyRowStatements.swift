/// Statements that write many rows at once, `INSERT … SELECT … FROM (VALUES (…), (…), …) WHERE
/// column1 IS NOT NULL`, prepared for a power of two of rows (1, 2, 4 …) up to
/// ``rowsPerStatement``.
///
/// Each statement run costs SQLite a few thousand instructions whatever it writes (starting and
/// ending its program and its statement journal), so rows written together cost far less than
/// a statement each. A run of fewer rows than its statement holds binds NULL to the rest, which
/// the statement leaves out: 200 rows take two statements of 128, the second with 56 left out,
/// and a table prepares at most eight statements.
final class ManyRowStatements {
    /// The most rows one statement writes: a power of two, at most 128, and small enough that a
    /// statement has at most 999 parameters (the oldest limit SQLite builds still set).
    let rowsPerStatement: Int
    private let parametersPerRow: Int
    private let connection: SQLiteConnection
    private let sql: (_ rows: Int) -> String
    private var statements: [Int: SQLiteStatement] = [:]

    /// - Parameter sql: the statement for that many rows, `parametersPerRow` parameters each, in order.
    init(parametersPerRow: Int, connection: SQLiteConnection, sql: @escaping (_ rows: Int) -> String) {
        var rows = 128
        while rows > 1, rows * parametersPerRow > 999 { rows /= 2 }
        rowsPerStatement = rows
        self.parametersPerRow = parametersPerRow
        self.connection = connection
        self.sql = sql
    }

    /// Writes `count` rows, as few statements as they take. `bind` binds the rows at the offsets
    /// given to the statement's parameters from the first; `read` gets each row a statement returns.
    func run(
        count: Int, bind: (SQLiteStatement, Range<Int>) throws -> Void, read: (SQLiteStatement) -> Void = { _ in }
    ) throws {
        var start = 0
        while start < count {
            let taken = min(count - start, rowsPerStatement)
            var size = 1
            while size < taken { size *= 2 }
            let statement = try self.statement(rows: size)
            defer { statement.reset() }
            try bind(statement, start ..< start + taken)
            // A statement keeps its bindings from one run to the next: the rows left out are bound afresh.
            for parameter in (taken * parametersPerRow) ..< (size * parametersPerRow) {
                try statement.bind(.null, at: Int32(parameter + 1))
            }
            while try statement.step() { read(statement) }
            start += taken
        }
    }

    private func statement(rows: Int) throws -> SQLiteStatement {
        if let statement = statements[rows] { return statement }
        let statement = try connection.statement(sql(rows))
        statement.reset()  // a statement from the connection's cache may have been left stepped
        statements[rows] = statement
        return statement
    }
}

/// `(?, ?, ?), (?, ?, ?)`: `rows` rows of `columns` parameters, for a `VALUES` list.
func valuesPlaceholders(rows: Int, columns: Int) -> String {
    let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
    return Array(repeating: row, count: rows).joined(separator: ", ")
}
