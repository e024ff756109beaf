/// Re-reading what the store holds. Changes made by other connections and by the app's own SQL
/// reach held instances through the change log without asking; `refresh` is for tables the
/// model leaves out of the log (`logChanges` false), and for an app that wants to be sure.
extension QSStore {
    /// Re-reads the rows of `objects` and patches the instances the store holds for them
    /// (uniqued and cached ones): a column the app changed and has not saved keeps the app's
    /// value, every other column and relationship takes the row's. An instance whose row is gone
    /// is forgotten. Values (structs) the store does not hold are left alone: fetch them again.
    /// Writes nothing, so observers hear nothing.
    /// ```swift
    /// try await store.refresh([note])
    /// ```
    /// - Returns: the uniqueIDs of the instances patched or forgotten.
    @discardableResult
    public func refresh<Object: QSDataObject>(_ objects: [Object]) async throws -> [Object.UniqueID] {
        try await refresh(Object.self, ids: objects.map(\.uniqueID.anyID))
    }

    /// Re-reads every instance of `type` the store holds, as ``refresh(_:)`` does.
    @discardableResult
    public func refresh<Object: QSDataObject>(_ type: Object.Type) async throws -> [Object.UniqueID] {
        let binding = try registry.binding(for: type)
        return try await refresh(type, ids: binding.cache.allObjects.map(\.uniqueID.anyID))
    }

    private func refresh<Object: QSDataObject>(_ type: Object.Type, ids: [QSAnyID]) async throws -> [Object.UniqueID] {
        try checkOpen()
        let binding = try registry.binding(for: type)
        let registry = self.registry
        let (patch, keepMade, read) = try await database.perform { state in
            let context = QueueContext(state: state, registry: registry)
            let read = state.replacedSnapshots.nextRead()
            let patch = try context.forgettingMadeInstancesOnFailure {
                try binding.outsideChangeWork(ids: ids, in: context, read: read, tracker: nil)
            }
            return (patch, context.made.handOver(), read)
        }
        keepMade()
        changeCenter.deliverFinishedWork()
        let patched = patch().compactMap { Object.UniqueID(anyID: $0) }
        registry.outsideReadsMerged.merged(read)
        return patched
    }
}
