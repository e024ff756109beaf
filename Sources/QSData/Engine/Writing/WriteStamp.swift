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
    /// As the app makes a bulk update by uniqueIDs while an earlier write may still patch or
    /// restore the instances: the columns it sets are noted with its `stamp` (see
    /// ``ObjectCache/noteColumnsSetByID(_:of:stamp:)``).
    case updatedByID(stamp: UInt64)
    /// Any other change made at once (a delete by uniqueIDs and the children it drops).
    case atOnce
    /// Once the write with this stamp has committed (or, for a restore, rolled back): instances the
    /// app saved through a later write are left as they are, and so are the columns a later bulk
    /// update by uniqueIDs set.
    case afterCommit(of: UInt64)

    /// Whether to leave the column values (or, with `relationships`, the relationships) of the
    /// instance for `id` in `cache` alone.
    @MainActor func skips<Object>(_ id: QSAnyID, in cache: ObjectCache<Object>, relationships: Bool = false) -> Bool {
        guard case .afterCommit(let stamp) = self else { return false }
        return cache.savedByApp(id, after: stamp, relationships: relationships)
    }

    /// Whether to leave `column` (a position in the layout) of the instance for `id` as it is: a
    /// bulk update by uniqueIDs set it after the write being patched in.
    @MainActor func keeps<Object>(_ column: Int, of id: QSAnyID, in cache: ObjectCache<Object>) -> Bool {
        guard case .afterCommit(let stamp) = self else { return false }
        return cache.columnSetByID(column, of: id, after: stamp)
    }

    /// Records that the instances for `ids` hold the values the app gave `columns` (positions in
    /// the layout, asked for only when this timing notes columns): all their column values for
    /// a save. Only a save's or a bulk update's made while an earlier write may still patch or
    /// restore the instances notes anything.
    @MainActor func record<Object>(_ ids: [QSAnyID], columns: () -> [Int], in cache: ObjectCache<Object>) {
        switch self {
        case .saved(let stamp):
            for id in ids { cache.markValuesSaved(id, stamp: stamp) }
        case .updatedByID(let stamp):
            let columns = columns()
            for id in ids { cache.noteColumnsSetByID(columns, of: id, stamp: stamp) }
        case .atOnce, .afterCommit: break
        }
    }
}
