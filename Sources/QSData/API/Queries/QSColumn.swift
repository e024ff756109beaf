/// A column of a model type's table, typed by the Swift value it holds: what conditions,
/// orderings and bulk updates are built from, so that the compiler checks the column's name and
/// the type of every value compared with it or written to it.
///
/// The model code generator writes one per column, under the type's `columns`:
/// ```swift
/// let late = try await store.fetch(Task.self, where: Task.columns.done == false && Task.columns.dueDate < now,
///                                  orderBy: [Task.columns.dueDate.ascending])
/// try store.update(Task.self, ids: ids, set: Task.columns.done.to(true))
/// ```
/// A hand-written type can declare its own the same way: `QSColumn<Note, Bool>("archived", type: .boolean)`.
/// Values are always bound as arguments, never spliced into the SQL.
public struct QSColumn<Root: QSDataObject, Value: QSColumnValue>: Sendable {
    /// The column's name in the table (the model's property name).
    public let name: String
    /// The column's type in the model, which decides how a value is stored (a `Date` as seconds
    /// since 1970, a `URL` as text).
    public let type: QSPropertyType

    public init(_ name: String, type: QSPropertyType) {
        self.name = name
        self.type = type
    }

    /// The column as SQL, quoted.
    var sql: String { quoted(name) }

    /// The condition `column <comparison> value`; comparing with nil gives `IS NULL` for `=` and
    /// `IS NOT NULL` for `<>`, as a person means it.
    func comparison(_ comparison: String, _ value: Value) -> QSCondition<Root> {
        do {
            let argument = try value.columnValue(as: type)
            if argument == .null, comparison == "=" { return QSCondition(sql: "\(sql) IS NULL", arguments: [], binding: .single) }
            if argument == .null, comparison == "<>" { return QSCondition(sql: "\(sql) IS NOT NULL", arguments: [], binding: .single) }
            return QSCondition(sql: "\(sql) \(comparison) ?", arguments: [argument], binding: .single)
        } catch {
            return QSCondition(failure: error)
        }
    }

    // MARK: Conditions

    /// `column = value` (`IS NULL` for nil).
    public static func == (column: QSColumn, value: Value) -> QSCondition<Root> { column.comparison("=", value) }
    /// `column <> value` (`IS NOT NULL` for nil).
    public static func != (column: QSColumn, value: Value) -> QSCondition<Root> { column.comparison("<>", value) }
    /// `column < value`.
    public static func < (column: QSColumn, value: Value) -> QSCondition<Root> { column.comparison("<", value) }
    /// `column <= value`.
    public static func <= (column: QSColumn, value: Value) -> QSCondition<Root> { column.comparison("<=", value) }
    /// `column > value`.
    public static func > (column: QSColumn, value: Value) -> QSCondition<Root> { column.comparison(">", value) }
    /// `column >= value`.
    public static func >= (column: QSColumn, value: Value) -> QSCondition<Root> { column.comparison(">=", value) }

    /// `column IN (?, ?, …)`, one bound argument per value; no values matches no row.
    public func `in`(_ values: some Sequence<Value>) -> QSCondition<Root> {
        do {
            let arguments = try values.map { try $0.columnValue(as: type) }
            let placeholders = Array(repeating: "?", count: arguments.count).joined(separator: ", ")
            return QSCondition(sql: "\(sql) IN (\(placeholders))", arguments: arguments, binding: .single)
        } catch {
            return QSCondition(failure: error)
        }
    }

    // MARK: Orderings

    /// Smallest first (`column ASC`).
    public var ascending: QSOrdering<Root> { QSOrdering(sql: "\(sql) ASC") }
    /// Largest first (`column DESC`).
    public var descending: QSOrdering<Root> { QSOrdering(sql: "\(sql) DESC") }

    // MARK: Bulk updates

    /// Sets the column to `value` in a bulk update.
    public func to(_ value: Value) -> QSAssignment<Root> {
        QSAssignment(name: name, value: value)
    }
}

extension QSColumn where Value: StringProtocol {
    /// `column LIKE pattern`: `%` matches any run of characters, `_` any one (ASCII letters
    /// compare without regard to case, as in SQLite).
    public func like(_ pattern: String) -> QSCondition<Root> {
        QSCondition(sql: "\(sql) LIKE ?", arguments: [.text(pattern)], binding: .single)
    }
}

extension QSColumn {
    /// `column LIKE pattern` on an optional text column.
    public func like<Text: StringProtocol>(_ pattern: String) -> QSCondition<Root> where Value == Text? {
        QSCondition(sql: "\(sql) LIKE ?", arguments: [.text(pattern)], binding: .single)
    }
}
