/// Forgetting the instances of rows a delete removed, on the main actor.
extension TypeRegistry {
    /// The main-actor work that forgets rows deleted on the queue; nil when there are none.
    func forgettingWork(_ deleted: RowDeleter.DeletedRows, stamp: UInt64) -> (@MainActor @Sendable () -> Void)? {
        guard deleted.values.contains(where: { !$0.isEmpty }) else { return nil }
        return { self.forgetDeleted(deleted, timing: .afterCommit(of: stamp), touches: nil) }
    }

    /// Forgets deleted rows' instances of every type on their table, and makes cached parents
    /// drop them. With `touches`, a rollback puts all of it back. After a commit, instances the
    /// app saved again through a later write are left alone: that write puts their rows back.
    @MainActor
    func forgetDeleted(_ deleted: RowDeleter.DeletedRows, timing: PatchTiming, touches: MemoryTouches?) {
        for (table, ids) in deleted where !ids.isEmpty {
            for binding in bindings(onTable: table) {
                if let touches {
                    touches.addUndo(binding.evictKeepingInstances(ids))
                    touches.removed(binding, ids: ids)
                } else if case .afterCommit(let stamp) = timing {
                    binding.evictDeleted(ids, afterCommitOf: stamp)
                } else {
                    binding.evictDeleted(ids, afterCommitOf: nil)
                }
            }
            let parents = parents(ofChildrenOn: table).filter(\.binding.cachesInstances)
            guard !parents.isEmpty else { continue }
            let idSet = Set(ids)
            for (parent, relationship) in parents {
                let changed = parent.dropChildren(idSet, from: relationship, timing: timing)
                touches?.changed(parent, ids: changed)
            }
        }
    }
}
