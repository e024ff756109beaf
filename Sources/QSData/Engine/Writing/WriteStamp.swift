/// Orders the app's writes. Work a write leaves for after its commit (patching instances after
/// an update or delete `where:`, or a cascade) skips the instances the app saved through a later
/// write: that save's values are what the database holds once it commits.
enum WriteStamp {
    private static let latest = LockedState<UInt64>(0)

    /// A new stamp for a write the app is making; later writes get larger ones.
    static func next() -> UInt64 {
        latest.withLock { stamp in
            stamp += 1
            return stamp
        }
    }
}

/// When cached instances are patched, relative to the app's writes.
enum PatchTiming {
    /// As the app saves: the instances are marked as changed by the save `stamp`, whose values
    /// they hold.
    case saved(stamp: UInt64)
    /// As the app makes any other write (a bulk update or delete by uniqueIDs).
    case atOnce
    /// Once the write with this stamp has committed: instances the app saved through a later
    /// write are left as they are.
    case afterCommit(of: UInt64)

    /// Whether to leave the column values (or, with `relationships`, the relationships) of the
    /// instance for `id` in `cache` alone.
    @MainActor func skips<Object>(_ id: Object.UniqueID, in cache: ObjectCache<Object>, relationships: Bool = false) -> Bool {
        guard case .afterCommit(let stamp) = self else { return false }
        return cache.savedByApp(id, after: stamp, relationships: relationships)
    }

    /// Marks the instance for `id` as holding the column values of the app's save.
    @MainActor func record<Object>(_ id: Object.UniqueID, in cache: ObjectCache<Object>) {
        if case .saved(let stamp) = self { cache.markValuesSaved(id, stamp: stamp) }
    }
}
