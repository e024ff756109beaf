/// Statements that write many rows at once, `INSERT … VALUES (…), (…), …`, prepared for a power
/// of two of rows (1, 2, 4 …) up to ``rowsPerStatement``.
///
/// Each statement run costs SQLite a few thousand instructions whatever it writes (starting and
/// ending its program), so rows written together cost far less than a statement each. Rows are
/// written in statements of ``rowsPerStatement``, and the rest in those of the powers of two it
/// adds up to: 200 rows of three columns take 128, 64 and 8. A table prepares at most eight
/// statements.
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

    /// Writes `count` rows in as few statements as they take; `bind` binds the rows at the
    /// offsets given to the statement's parameters from the first, and `returned` reads each
    /// row a statement returns (`RETURNING`), if any.
    func run(
        count: Int, bind: (SQLiteStatement, Range<Int>) throws -> Void, returned: (SQLiteStatement) throws -> Void = { _ in }
    ) throws {
        var start = 0
        var size = rowsPerStatement
        while start < count {
            while size > count - start { size /= 2 }
            let statement = try self.statement(rows: size)
            defer { statement.reset() }
            try bind(statement, start ..< start + size)
            while try statement.step() { try returned(statement) }
            start += size
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
