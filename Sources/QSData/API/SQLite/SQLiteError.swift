/// An error reported by SQLite, with the statement that caused it.
///
/// Its `description` reads well in a terminal:
/// `SQLite error 19: UNIQUE constraint failed: tags.name — in: INSERT INTO tags …`
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's primary result code (`SQLITE_CONSTRAINT` is 19, `SQLITE_NOTADB` is 26, …).
    public let code: Int32
    /// SQLite's extended result code, which says more (`SQLITE_CONSTRAINT_UNIQUE` is 2067, …).
    public let extendedCode: Int32
    /// SQLite's explanation.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }
}
