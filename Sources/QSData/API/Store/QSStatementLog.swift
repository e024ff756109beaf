/// The SQL statements the store ran during ``QSStore/recordStatements(_:)``.
///
/// ``count`` counts the statements that did work: transaction control (`BEGIN`, `COMMIT`,
/// `ROLLBACK`, savepoints) is listed in ``all`` but not counted, since one transaction wraps
/// every write whatever its size.
public struct QSStatementLog: Sendable, CustomStringConvertible {
    /// Every statement, in the order SQLite ran them, transaction control included.
    public let all: [String]

    /// The statements that did work, without transaction control.
    public var statements: [String] { all.filter { !Self.isTransactionControl($0) } }

    /// The number of statements that did work.
    public var count: Int { statements.count }

    public var description: String {
        "\(count) statement\(count == 1 ? "" : "s")" + statements.map { "\n  \($0)" }.joined()
    }

    static func isTransactionControl(_ sql: String) -> Bool {
        let head = sql.prefix(12).uppercased()
        return ["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"].contains { head.hasPrefix($0) }
    }
}
