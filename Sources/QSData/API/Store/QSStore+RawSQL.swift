/// The app's own SQL, on the same queue as everything else: for tables outside the model
/// and for what the object API does not cover. What it changes in model tables reaches the
/// store through the change log: held and cached instances are patched, and observers and live
/// queries hear it as a change whose ``QSChange/origin`` is ``QSChange/Origin/appSQL``.
extension QSStore {
    /// Runs `body` with the connection on the database queue and returns its result.
    ///
    /// While a background write runs (see ``performInBackground(_:)``), `body` may get a reader
    /// connection instead, which sees the last committed state and refuses any write.
    /// ```swift
    /// let deleted = try await store.read { db in
    ///     try db.fetchRows("SELECT uniqueID FROM deletedNotes").count
    /// }
    /// ```
    public func read<Value: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try await performRead(body)
    }

    /// Runs `body` in a transaction on the database queue and waits for it to commit.
    public func writeAndWait<Value: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try await performAppSQL { connection in try connection.transaction { try body(connection) } }
    }

    /// Enqueues `body` in a transaction, without waiting; a failure is reported like any write.
    /// Inside ``performBatch(_:)`` it joins the batch's transaction.
    @discardableResult
    public func write(_ operation: String = "raw SQL write", _ body: @escaping @Sendable (SQLiteConnection) throws -> Void) throws -> QSWrite {
        try beginWrite()
        return submitWrite(operation, source: .app) { writer, _ in
            let state = writer.state
            defer { state.snapshotTrust.distrustAll() }
            guard let log = state.changeLog else {
                try body(writer.connection)
                return nil
            }
            log.appSQLRan = true
            try log.triggers.withFileTriggers(on: state.connection) { try body(state.connection) }
            return nil
        }
    }

    /// Runs one statement with bound arguments and waits for it. A statement that changes the
    /// schema (`ALTER TABLE`, `DROP …`) runs without the change log's triggers, which are made
    /// again afterwards for the tables as they are then; run such changes here or in a
    /// migration, not inside ``write(_:_:)`` or ``writeAndWait(_:)``.
    public func execute(_ sql: String, _ arguments: [SQLValue] = []) async throws {
        guard ChangeLog.changesSchema(sql) else {
            return try await performAppSQL { connection in try connection.execute(sql, arguments) }
        }
        try beginWrite()
        defer { changeCenter.deliverFinishedWork() }
        try await database.perform { state in
            defer { state.snapshotTrust.distrustAll() }
            guard let log = state.changeLog else { return try state.connection.execute(sql, arguments) }
            try log.withoutTriggers(on: state.connection) {
                try log.triggers.withFileTriggers(on: state.connection) { try state.connection.execute(sql, arguments) }
            }
        }
    }

    /// Runs a query with bound arguments and returns its rows.
    public func fetchRows(_ sql: String, _ arguments: [SQLValue] = []) async throws -> [[SQLValue]] {
        try await performRead { connection in try connection.fetchRows(sql, arguments) }
    }

    /// Runs the app's SQL on the queue with the change log's triggers firing, then takes in what
    /// it changed in model tables before returning.
    private func performAppSQL<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try beginWrite()
        // Delivered whether the SQL succeeded or not: a failing script may have changed rows first.
        defer { changeCenter.deliverFinishedWork() }
        return try await database.perform { state in
            guard let log = state.changeLog else { return try work(state.connection) }
            defer { state.snapshotTrust.distrustAll() }
            do {
                let value = try log.triggers.withFileTriggers(on: state.connection) { try work(state.connection) }
                try state.outsideChanges?.catchUp(state, origin: .appSQL, force: true)
                return value
            } catch {
                try state.outsideChanges?.catchUp(state, origin: .appSQL, force: true)
                throw error
            }
        }
    }

    /// The uniqueIDs of objects of `type` that no parent's lookup rows refer to. Under the
    /// default `nullify` delete rule children outlive their parents; this is how an app finds them.
    public func orphanIDs<Object: QSDataObject>(of type: Object.Type) async throws -> [Object.UniqueID] {
        let binding = try registry.binding(for: type)
        let references = model.objectTypes.values
            .flatMap(\.relationships)
            .filter { $0.childType == binding.description.name }
            .map { "SELECT \(quoted($0.childIDColumn)) FROM \(quoted($0.table))" }
        guard !references.isEmpty else { return try await fetchIDs(type) }
        let condition = "\(quoted("uniqueID")) NOT IN (\(references.joined(separator: " UNION ")))"
        return try await fetchIDs(type, where: condition)
    }

    /// Deletes the orphans ``orphanIDs(of:)`` finds, like any delete.
    public func deleteOrphans<Object: QSDataObject>(of type: Object.Type, source: QSChangeSource = .app) async throws {
        try delete(type, ids: try await orphanIDs(of: type), source: source)
    }
}
