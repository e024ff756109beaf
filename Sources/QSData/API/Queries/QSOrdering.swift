/// One key of a query's order, made from a ``QSColumn``: `Task.columns.dueDate.descending`.
/// Queries take an array of them, most significant first.
public struct QSOrdering<Root: QSDataObject>: Sendable {
    /// The key as SQL: `"dueDate" DESC`.
    public let sql: String

    init(sql: String) {
        self.sql = sql
    }

    /// An `ORDER BY` clause (without the keywords) for `orderings`, or nil when there are none.
    static func clause(_ orderings: [QSOrdering]) -> String? {
        orderings.isEmpty ? nil : orderings.map(\.sql).joined(separator: ", ")
    }
}
