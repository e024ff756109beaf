/// Fetching. Every fetch runs on the database queue (or, a short one finding the queue idle, on the
/// calling thread as the queue) after the writes enqueued before it;
/// fetches by uniqueID are answered from the caches when they can, with no SQL at all.
extension QSStore {
    /// The most levels of eagerly loaded relationships one fetch follows, one within another (a
    /// step listing steps that list steps…). Data that goes deeper, such as objects listing one
    /// another in a cycle, makes the fetch throw
    /// ``QSDataError/eagerLoadingTooDeep(type:relationship:levels:)`` rather than recurse without
    /// end: load such a relationship lazily.
    ///
    /// Each level runs deeper on the stack, about 5.6 KB in a debug build and less in a release
    /// one, so 64 levels fit within the 512 KB of a secondary thread on Apple's platforms.
    public nonisolated static let deepestEagerLoading = 64

    /// The object with `id`, or nil when there is none.
    public func fetch<Object: QSDataObject>(_ type: Object.Type, id: Object.UniqueID) async throws -> Object? {
        let binding = try registry.binding(for: type)
        if let cached = binding.cache.object(for: id) { return cached }
        return try await fetchRows(binding, .ids([id.anyID])).first
    }

    /// The objects with these uniqueIDs, in the order of `ids`; IDs with no row are skipped.
    ///
    /// Instances the store holds are returned without SQL; the others are read in one statement
    /// (plus the statements of their eager relationships), however many there are.
    /// - Parameters:
    ///   - type: The type to fetch.
    ///   - ids: The uniqueIDs wanted, in the order the result should have.
    ///   - loading: How to load relationships, by name, where the model says otherwise.
    public func fetch<Object: QSDataObject>(
        _ type: Object.Type, ids: some Sequence<Object.UniqueID>, loading: [String: QSLoading] = [:]
    ) async throws -> [Object] {
        let binding = try registry.binding(for: type)
        let ids = Array(ids)
        var found: [Object.UniqueID: Object] = [:]
        var missing: [QSAnyID] = []
        for id in ids {
            if let cached = binding.cache.object(for: id) {
                found[id] = cached
            } else {
                missing.append(id.anyID)
            }
        }
        if !missing.isEmpty {
            var request = FetchRequest.ids(missing)
            request.loading = loading
            for object in try await fetchRows(binding, request) {
                found[object.uniqueID] = object
            }
        }
        return ids.compactMap { found[$0] }
    }

    /// Every object of the type, optionally sorted by an SQL `ORDER BY` clause.
    /// - Parameters:
    ///   - type: The type to fetch.
    ///   - orderBy: An SQL `ORDER BY` clause without the keywords, such as `"sortDate DESC"`.
    ///   - loading: How to load relationships, by name, where the model says otherwise.
    public func fetchAll<Object: QSDataObject>(
        _ type: Object.Type, orderBy: String? = nil, loading: [String: QSLoading] = [:]
    ) async throws -> [Object] {
        try await fetchRows(registry.binding(for: type), FetchRequest(orderBy: orderBy, loading: loading))
    }

    /// The children of a relationship held as ``QSRelated``, in order: the loaded ones as they
    /// are, the others from the store's caches when it holds them, and the rest in one statement.
    /// ```swift
    /// let episodes = try await store.fetchChildren(podcast.episodes)
    /// ```
    public func fetchChildren<Child: QSDataObject>(_ related: QSRelated<Child>) async throws -> [Child] {
        if let children = related.children { return children }
        return try await fetch(Child.self, ids: related.ids)
    }

    /// The objects whose rows match an SQL condition, with bound arguments.
    /// ```swift
    /// let recent = try await store.fetch(Note.self, where: "archived = ? AND sortDate > ?",
    ///                                    arguments: [false, .real(cutoff.timeIntervalSince1970)],
    ///                                    orderBy: "sortDate DESC", limit: 50)
    /// ```
    /// - Parameters:
    ///   - type: The type to fetch.
    ///   - condition: An SQL condition on the type's table, with `?` for each argument.
    ///   - arguments: The values bound to the condition's `?`s.
    ///   - orderBy: An SQL `ORDER BY` clause without the keywords.
    ///   - limit: The most objects to return.
    ///   - loading: How to load relationships, by name, where the model says otherwise:
    ///     `["episodes": .lazy]` reads only the episodes' IDs.
    public func fetch<Object: QSDataObject>(
        _ type: Object.Type, where condition: String, arguments: [SQLValue] = [], orderBy: String? = nil, limit: Int? = nil,
        loading: [String: QSLoading] = [:]
    ) async throws -> [Object] {
        let request = FetchRequest(condition: condition, arguments: arguments, orderBy: orderBy, limit: limit, loading: loading)
        return try await fetchRows(registry.binding(for: type), request)
    }

    /// The uniqueIDs of the rows matching an SQL condition (all rows when nil), without
    /// making any objects.
    public func fetchIDs<Object: QSDataObject>(
        _ type: Object.Type, where condition: String? = nil, arguments: [SQLValue] = [], orderBy: String? = nil
    ) async throws -> [Object.UniqueID] {
        let binding = try registry.binding(for: type)
        let request = FetchRequest(condition: condition, arguments: arguments, orderBy: orderBy)
        let sql = "SELECT \(quoted("uniqueID")) FROM \(binding.sql.table)\(request.tail)"
        let rows = try await performRead { connection in try connection.fetchRows(sql, request.arguments) }
        return rows.compactMap { row in row.first.flatMap(QSAnyID.init(sqlValue:)).flatMap(Object.UniqueID.init(anyID:)) }
    }

    /// The number of rows matching an SQL condition (all rows when nil).
    public func count<Object: QSDataObject>(_ type: Object.Type, where condition: String? = nil, arguments: [SQLValue] = []) async throws -> Int {
        let binding = try registry.binding(for: type)
        let request = FetchRequest(condition: condition, arguments: arguments)
        let sql = "SELECT count(*) FROM \(binding.sql.table)\(request.tail)"
        let value = try await performRead { connection in try connection.fetchValue(sql, request.arguments) }
        if case .integer(let count) = value { return Int(count) }
        return 0
    }

    /// The instances the store holds in memory for the type (permanently cached, or uniqued and
    /// alive), in no particular order. Runs no SQL.
    public func cachedObjects<Object: QSDataObject>(of type: Object.Type) throws -> [Object] {
        try registry.binding(for: type).cache.allObjects
    }

    /// The instance with `id` if the store holds it in memory (permanently cached, or uniqued and
    /// alive); nil otherwise. Runs no SQL and does not wait.
    public func cachedObject<Object: QSDataObject>(of type: Object.Type, id: Object.UniqueID) throws -> Object? {
        try registry.binding(for: type).cache.object(for: id)
    }

    /// The number of instances of the type the store holds in memory.
    public func cachedObjectCount<Object: QSDataObject>(of type: Object.Type) throws -> Int {
        try registry.binding(for: type).cache.count
    }

    /// Runs a fetch on the queue and hands the instances to the main actor.
    func fetchRows<Object>(_ binding: TypeBinding<Object>, _ request: FetchRequest) async throws -> [Object] {
        try await fetchRowsNumbered(binding, request).objects
    }

    /// Runs a fetch on the queue and hands the instances to the main actor, with the number of
    /// the last write committed before it ran: the objects reflect that write and every earlier one.
    /// `extraValues` holds the request's ``FetchRequest/extraColumns`` of each row, in row order.
    func fetchRowsNumbered<Object>(
        _ binding: TypeBinding<Object>, _ request: FetchRequest
    ) async throws -> (objects: [Object], extraValues: [SQLValue], commitNumber: UInt64) {
        try checkOpen()
        if let gate = database.readGate, let read = try await fetchOnReader(binding, request, after: gate) {
            return read
        }
        let registry = self.registry
        let finishedWrites = changeCenter.finishedWrites
        let insertionsBefore = binding.cache.outsideInsertions
        let read: @Sendable (QueueState) throws -> FetchTransfer<Object> = { state in
            let context = QueueContext(state: state, registry: registry)
            var extraValues: [SQLValue] = []
            let objects = try context.forgettingMadeInstancesOnFailure { try binding.fetch(request, in: context, extraValues: &extraValues) }
            return (ObjectsInTransit(value: objects), extraValues, context.made.handOver(), finishedWrites.lastCommitNumber)
        }
        let transfer = if request.isShort, let done = try database.readIfIdle(read) { done } else { try await database.perform(read) }
        let (objects, extraValues, keepMade, commitNumber) = transfer
        keepMade()
        // What other connections changed, read on the queue before the fetch: the instances
        // handed out are patched first.
        changeCenter.deliverFinishedWork()
        guard binding.cache.outsideInsertions != insertionsBefore else { return (objects.value, extraValues, commitNumber) }
        return (canonical(objects.value, binding: binding), extraValues, commitNumber)
    }

    /// Swaps in the live instance where the app saved a different one for the same uniqueID
    /// while the fetch was running, so that at most one instance per uniqueID is ever handed out.
    private func canonical<Object>(_ objects: [Object], binding: TypeBinding<Object>) -> [Object] {
        guard binding.cache.policy == .weak else { return objects }
        return objects.map { object in binding.cache.object(for: object.uniqueID) ?? object }
    }

    /// Runs `work`, which only reads, on the queue after everything enqueued before it.
    /// What other connections changed, read on the queue before `work`, is delivered before
    /// the result is returned.
    func perform<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try checkOpen()
        defer { changeCenter.deliverFinishedWork() }
        return try await database.performLetting { state in try work(state.connection) }
    }
}

/// What a fetch on the queue hands back to the main actor: the objects, the values selected after
/// each row's columns, the work that keeps the instances it made, and the number of the last
/// write it reflects.
private typealias FetchTransfer<Object> = (
    objects: ObjectsInTransit<[Object]>, extraValues: [SQLValue], keepMade: @MainActor @Sendable () -> Void, commitNumber: UInt64
)
