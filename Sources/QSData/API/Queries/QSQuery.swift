/// A query to keep watching: a type, an SQL condition with its arguments, an order and a limit.
///
/// Observe it with ``QSStore/liveQuery(_:)`` (an `@Observable` object for a view) or
/// ``QSStore/liveResults(_:)`` (an `AsyncSequence` of result arrays):
/// ```swift
/// let timeline = QSQuery(Note.self, where: "archived = ?", arguments: [false],
///                        orderBy: "sortDate DESC", limit: 100)
/// ```
/// The results are fetched again after any committed change to the type's table (by this type
/// or another type on the same table) or to the tables of the related types it loads. A
/// condition that reads other tables (a subquery) names their types with ``alsoWatching(_:)``.
public struct QSQuery<Object: QSDataObject>: Sendable {
    /// SQL over the type's table; nil selects every row.
    public var condition: String?
    /// The values of the condition's `?` placeholders.
    public var arguments: [SQLValue]
    /// An SQL `ORDER BY` clause, such as `sortDate DESC`.
    public var orderBy: String?
    /// The most objects to return; nil for all.
    public var limit: Int?
    /// Model names of further types whose changes can change the results.
    public var watchedTypeNames: Set<String> = []

    public init(
        _ type: Object.Type = Object.self, where condition: String? = nil, arguments: [SQLValue] = [],
        orderBy: String? = nil, limit: Int? = nil
    ) {
        self.condition = condition
        self.arguments = arguments
        self.orderBy = orderBy
        self.limit = limit
    }

    /// The same query, also fetched again when these types change (for a condition that reads
    /// their tables).
    public func alsoWatching(_ types: any QSDataObject.Type...) -> QSQuery {
        var query = self
        query.watchedTypeNames.formUnion(types.map { $0.modelName })
        return query
    }

    var request: FetchRequest {
        FetchRequest(condition: condition, arguments: arguments, orderBy: orderBy, limit: limit)
    }
}
