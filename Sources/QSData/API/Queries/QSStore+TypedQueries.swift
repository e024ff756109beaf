/// The queries that take an SQL condition, taking a typed ``QSCondition`` instead, with
/// ``QSOrdering`` keys for the order and ``QSAssignment``s for bulk updates. Each writes the SQL
/// of its condition and ordering and calls the string form, so both run the same statements.
extension QSStore {
    /// The objects matching a typed condition.
    /// ```swift
    /// let open = try await store.fetch(Task.self, where: Task.columns.done == false,
    ///                                  orderBy: [Task.columns.dueDate.ascending], limit: 50)
    /// ```
    public func fetch<Object: QSDataObject>(
        _ type: Object.Type, where condition: QSCondition<Object>, orderBy: [QSOrdering<Object>] = [], limit: Int? = nil,
        loading: [String: QSLoading] = [:]
    ) async throws -> [Object] {
        let resolved = try condition.resolved()
        return try await fetch(type, where: resolved.sql, arguments: resolved.arguments,
                               orderBy: QSOrdering.clause(orderBy), limit: limit, loading: loading)
    }

    /// Every object of the type, in a typed order.
    public func fetchAll<Object: QSDataObject>(
        _ type: Object.Type, orderBy: [QSOrdering<Object>], loading: [String: QSLoading] = [:]
    ) async throws -> [Object] {
        try await fetchAll(type, orderBy: QSOrdering.clause(orderBy), loading: loading)
    }

    /// The uniqueIDs of the rows matching a typed condition, without making any objects.
    public func fetchIDs<Object: QSDataObject>(
        _ type: Object.Type, where condition: QSCondition<Object>, orderBy: [QSOrdering<Object>] = []
    ) async throws -> [Object.UniqueID] {
        let resolved = try condition.resolved()
        return try await fetchIDs(type, where: resolved.sql, arguments: resolved.arguments, orderBy: QSOrdering.clause(orderBy))
    }

    /// The number of rows matching a typed condition.
    public func count<Object: QSDataObject>(_ type: Object.Type, where condition: QSCondition<Object>) async throws -> Int {
        let resolved = try condition.resolved()
        return try await count(type, where: resolved.sql, arguments: resolved.arguments)
    }

    /// Deletes the rows matching a typed condition, in one statement, as
    /// ``delete(_:where:arguments:source:alongside:)`` does.
    @discardableResult
    public func delete<Object: QSDataObject>(
        _ type: Object.Type, where condition: QSCondition<Object>, source: QSChangeSource = .app,
        alongside: (@Sendable (SQLiteConnection, [Object.UniqueID]) throws -> Void)? = nil
    ) throws -> QSWrite {
        let resolved = try condition.resolved()
        return try delete(type, where: resolved.sql, arguments: resolved.arguments, source: source, alongside: alongside)
    }

    /// Sets columns on the objects with these uniqueIDs in one statement, as
    /// ``update(_:ids:set:source:)-(_,_,[String:QSColumnValue],_)`` does.
    /// ```swift
    /// try store.update(Task.self, ids: selected, set: Task.columns.done.to(true))
    /// ```
    @discardableResult
    public func update<Object: QSDataObject>(
        _ type: Object.Type, ids: some Sequence<Object.UniqueID>, set assignments: QSAssignment<Object>...,
        source: QSChangeSource = .app
    ) throws -> QSWrite {
        try update(type, ids: ids, set: QSAssignment.values(assignments), source: source)
    }

    /// Sets columns on the rows matching a typed condition in one statement, as
    /// ``update(_:where:arguments:set:source:)`` does.
    @discardableResult
    public func update<Object: QSDataObject>(
        _ type: Object.Type, where condition: QSCondition<Object>, set assignments: QSAssignment<Object>...,
        source: QSChangeSource = .app
    ) throws -> QSWrite {
        let resolved = try condition.resolved()
        return try update(type, where: resolved.sql, arguments: resolved.arguments, set: QSAssignment.values(assignments), source: source)
    }

    /// Full-text search narrowed by a typed condition, as ``search(_:for:where:arguments:limit:snippet:matchingPrefixes:)``
    /// does.
    public func search<Object: QSDataObject>(
        _ type: Object.Type, for text: String, where condition: QSCondition<Object>,
        limit: Int? = 50, snippet: QSSnippetStyle? = nil, matchingPrefixes: Bool = true
    ) async throws -> [QSSearchResult<Object>] {
        let resolved = try condition.resolved()
        return try await search(type, for: text, where: resolved.sql, arguments: resolved.arguments,
                                limit: limit, snippet: snippet, matchingPrefixes: matchingPrefixes)
    }
}

extension QSQuery {
    /// A query with a typed condition and order.
    /// ```swift
    /// let inbox = QSQuery(Task.self, where: Task.columns.done == false, orderBy: [Task.columns.dueDate.ascending])
    /// ```
    /// - Throws: the error of a value that could not be turned into a column value.
    public init(
        _ type: Object.Type = Object.self, where condition: QSCondition<Object>? = nil, orderBy: [QSOrdering<Object>],
        limit: Int? = nil
    ) throws {
        let resolved = try condition?.resolved()
        self.init(type, where: resolved?.sql, arguments: resolved?.arguments ?? [], orderBy: QSOrdering.clause(orderBy), limit: limit)
    }

    /// A query with a typed condition.
    /// - Throws: the error of a value that could not be turned into a column value.
    public init(_ type: Object.Type = Object.self, where condition: QSCondition<Object>, limit: Int? = nil) throws {
        try self.init(type, where: condition, orderBy: [], limit: limit)
    }
}
