/// A condition on a model type's rows, built from its ``QSColumn``s with `==`, `<`, `in(_:)`,
/// `&&`, `||` and `!`, and taken by every query that takes an SQL condition: fetches, counts,
/// deletes, bulk updates, live queries and search filters.
///
/// ```swift
/// let condition = Task.columns.done == false && (Task.columns.priority > 2 || Task.columns.dueDate < now)
/// // "done" = ? AND ("priority" > ? OR "dueDate" < ?), with three bound arguments
/// ```
/// It is the same SQL text a person would write, so a typed query runs exactly the statements of
/// its string form. ``init(sql:arguments:)`` lets a piece of SQL join typed parts.
public struct QSCondition<Root: QSDataObject>: Sendable {
    /// How the condition's SQL binds, so that combining adds parentheses only where they are
    /// needed.
    enum Binding: Sendable {
        /// One comparison, or a `NOT (…)`: stands as it is anywhere.
        case single
        /// SQL written by hand: it may hold an `OR` of its own, so it is parenthesized when combined.
        case written
        case and
        case or
    }

    /// The condition as SQL, with `?` for each argument.
    public let sql: String
    /// The values bound to the `?`s, in order.
    public let arguments: [SQLValue]
    let binding: Binding
    /// Why a value could not be turned into a column value; thrown when the query runs.
    let failure: (any Error)?

    /// A condition written in SQL, to combine with typed ones. It is wrapped in parentheses
    /// when combined.
    public init(sql: String, arguments: [SQLValue] = []) {
        self.init(sql: sql, arguments: arguments, binding: .written)
    }

    init(sql: String, arguments: [SQLValue], binding: Binding) {
        self.sql = sql
        self.arguments = arguments
        self.binding = binding
        failure = nil
    }

    init(failure: any Error) {
        sql = ""
        arguments = []
        binding = .single
        self.failure = failure
    }

    /// Both conditions.
    public static func && (lhs: QSCondition, rhs: QSCondition) -> QSCondition {
        combine(lhs, "AND", rhs, as: .and)
    }

    /// Either condition.
    public static func || (lhs: QSCondition, rhs: QSCondition) -> QSCondition {
        combine(lhs, "OR", rhs, as: .or)
    }

    /// The opposite condition: `NOT (…)`.
    public static prefix func ! (condition: QSCondition) -> QSCondition {
        if let failure = condition.failure { return QSCondition(failure: failure) }
        return QSCondition(sql: "NOT (\(condition.sql))", arguments: condition.arguments, binding: .single)
    }

    private static func combine(_ lhs: QSCondition, _ word: String, _ rhs: QSCondition, as binding: Binding) -> QSCondition {
        if let failure = lhs.failure ?? rhs.failure { return QSCondition(failure: failure) }
        return QSCondition(sql: "\(lhs.operand(of: binding)) \(word) \(rhs.operand(of: binding))",
                           arguments: lhs.arguments + rhs.arguments, binding: binding)
    }

    /// The SQL to place as an operand of `AND` or `OR`: a single comparison, or a condition that
    /// combines with that same word, stands as it is; anything else is put in parentheses.
    private func operand(of combination: Binding) -> String {
        binding == .single || binding == combination ? sql : "(\(sql))"
    }

    /// The SQL and its arguments, or the failure of a value that could not be converted.
    func resolved() throws -> (sql: String, arguments: [SQLValue]) {
        if let failure { throw failure }
        return (sql, arguments)
    }
}
