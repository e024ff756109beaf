/// Keeping the instances in memory true to the database when rows are deleted and when a write
/// is rolled back.
extension TypeBinding {
    @MainActor func evictKeepingInstances(_ ids: [QSAnyID]) -> @MainActor @Sendable () -> Void {
        // By the uniqueIDs as the cache keeps them: a delete of many rows makes no typed ID for each.
        let removed = ObjectsInTransit(value: cache.removeDeleted(ids))
        let cache = self.cache
        return { for object in removed.value { cache.insertPutBack(object) } }
    }

    @MainActor func dropChildren(_ ids: Set<QSAnyID>, from relationship: String, timing: PatchTiming) -> [QSAnyID] {
        guard cachePolicy != .none, !ids.isEmpty, let position = layout.relationshipPosition(of: relationship) else { return [] }
        var encoder = QSRowEncoder(layout: layout)
        let row = QSRow(layout: layout, values: [], parentID: .integer(0))
        var changed: [QSAnyID] = []
        for object in cache.allObjects where !timing.skips(object.uniqueID.anyID, in: cache, relationships: true) {
            object.encode(to: &encoder)
            let id = object.uniqueID.anyID
            do {
                var (values, related) = try encoder.finish()
                guard let kept = related[position]?.removing(ids) else { continue }
                related.set(kept, at: position, of: layout.relationshipNames.count)
                try replace(object, values: values, related: related, id: id, using: row)
            } catch {
                // An instance that can't be patched is forgotten: the next fetch reads the database.
                cache.removeKeepingRows([id])
            }
            changed.append(id)
        }
        return changed
    }

    @MainActor func cachedInstanceListsChildren(ids: [QSAnyID], in relationship: String, besides deletedToo: Set<QSAnyID>) throws -> Bool {
        guard cache.policy != .none else { return false }
        for id in ids {
            guard let typedID = Object.UniqueID(anyID: id), let object = cache.object(for: typedID) else { continue }
            if try listsChildren(object, in: relationship, besides: deletedToo) { return true }
        }
        return false
    }

    /// Whether `object` lists children in `relationship` (as it would save them) other than
    /// those in `deletedToo`.
    @MainActor func listsChildren(_ object: Object, in relationship: String, besides deletedToo: Set<QSAnyID>) throws -> Bool {
        var encoder = QSRowEncoder(layout: layout)
        object.encode(to: &encoder)
        guard let position = layout.relationshipPosition(of: relationship),
              let children = try encoder.finish().relationships[position]?.childIDs else { return false }
        return children.contains { !deletedToo.contains($0) }
    }

    func restoreCachedInstances(ids: [QSAnyID], stamp: UInt64, in context: QueueContext) throws -> @MainActor @Sendable () -> [QSAnyID] {
        guard cachePolicy != .none, !ids.isEmpty else { return { [] } }
        var request = FetchRequest.ids(ids)
        request.bypassesCache = true
        let stored = ObjectsInTransit(value: try fetch(request, in: context))
        // A row the rolled-back write would have inserted has no row: the queue's table lets go
        // of the instance it adopted for it, as the main actor's does below.
        let found = Set(stored.value.map(\.uniqueID.anyID))
        context.state.knownRows(of: self).remove(ids.filter { !found.contains($0) })
        return { self.restore(ids: ids, from: stored.value, timing: .afterCommit(of: stamp)) }
    }

    /// Makes the cached instances hold what `stored` holds, and forgets those of the `ids` that
    /// have no row. An instance `timing` skips (the app saved it again after the write that
    /// rolled back, before this reached the main actor) keeps what that later save holds, and
    /// columns a later bulk update by uniqueIDs set keep what it set: read back here, the row is
    /// older than they are.
    @MainActor private func restore(ids: [QSAnyID], from stored: [Object], timing: PatchTiming) -> [QSAnyID] {
        var encoder = QSRowEncoder(layout: layout)
        let row = QSRow(layout: layout, values: [], parentID: .integer(0))
        var restored: [QSAnyID] = []
        var found: Set<QSAnyID> = []
        for object in stored {
            let id = object.uniqueID.anyID
            found.insert(id)
            guard let current = cache.object(for: object.uniqueID), !timing.skips(id, in: cache) else { continue }
            do {
                object.encode(to: &encoder)
                var (values, related) = try encoder.finish()
                // Columns a later bulk update by uniqueIDs set keep what it set.
                let kept = values.indices.filter { timing.keeps($0, of: id, in: cache) }
                if !kept.isEmpty {
                    current.encode(to: &encoder)
                    let held = try encoder.finish().values
                    for index in kept { values[index] = held[index] }
                }
                try replace(current, values: values, related: related, id: id, using: row)
            } catch {
                cache.removeKeepingRows([id])
            }
            restored.append(id)
        }
        let gone = ids.filter { !found.contains($0) && !timing.skips($0, in: cache) }
        restored += cache.removeDeleted(gone).map { $0.uniqueID.anyID }
        return restored
    }
}
