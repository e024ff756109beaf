/// The SQL statements the store ran during ``QSStore/recordStatements(_:)``.
///
/// ``count`` counts the statements that did work. Listed in ``all`` but not counted: transaction
/// control (`BEGIN`, `COMMIT`, `ROLLBACK`, savepoints), since one transaction wraps every write
/// whatever its size; and the change log's bookkeeping (``changeLogBookkeeping``): the look at
/// whether another connection committed (`PRAGMA data_version`, once per fetch or write), the
/// one entry statement a write transaction adds to the log, and now and then the store's
/// position in the log and the removal of entries every store has read. Reading the log after
/// another writer's change is work, and is counted.
public struct QSStatementLog: Sendable, CustomStringConvertible {
    /// Every statement, in the order SQLite ran them, transaction control included.
    public let all: [String]

    /// The statements that did work, without transaction control and the change log's bookkeeping.
    public var statements: [String] { all.filter { !Self.isTransactionControl($0) && !Self.isChangeLogBookkeeping($0) } }

    /// The change log's bookkeeping statements (see the type's description).
    public var changeLogBookkeeping: [String] { all.filter(Self.isChangeLogBookkeeping) }

    /// The number of statements that did work.
    public var count: Int { statements.count }

    public var description: String {
        "\(count) statement\(count == 1 ? "" : "s")" + statements.map { "\n  \($0)" }.joined()
    }

    static func isTransactionControl(_ sql: String) -> Bool {
        let head = sql.prefix(12).uppercased()
        return ["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"].contains { head.hasPrefix($0) }
    }

    static func isChangeLogBookkeeping(_ sql: String) -> Bool {
        sql == "PRAGMA data_version"
            || sql.hasPrefix("INSERT INTO qsdata_changes (tableName, kind, ids, columns, writer)")
            || sql.hasPrefix("INSERT OR REPLACE INTO qsdata_change_readers")
            || sql.hasPrefix("DELETE FROM qsdata_change")
    }
}
