import Synchronization

/// Orders the app's writes. Work a write leaves for after its commit (patching instances after
/// an update or delete `where:`) skips the instances the app changed through a later write,
/// whose values the database will hold once that write commits.
enum WriteStamp {
    private static let latest = Atomic<UInt64>(0)

    /// A new stamp for a write the app is making; later writes get larger ones.
    static func next() -> UInt64 {
        latest.add(1, ordering: .relaxed).newValue
    }

    /// The stamp of the latest write.
    static var current: UInt64 {
        latest.load(ordering: .relaxed)
    }
}

/// When cached instances are patched, relative to the app's writes.
enum PatchTiming {
    /// As the app makes the write: the instances are marked as changed by it.
    case atOnce
    /// Once the write with this stamp has committed: instances the app changed through a
    /// later write are left as they are.
    case afterCommit(of: UInt64)

    /// Whether to leave the instance for `id` in `cache` alone.
    func skips<Object>(_ id: Object.UniqueID, in cache: ObjectCache<Object>) -> Bool {
        guard case .afterCommit(let stamp) = self else { return false }
        return cache.changedByApp(id, after: stamp)
    }

    /// Marks the instance for `id` as changed by the app's write when patched at once.
    func record<Object>(_ id: Object.UniqueID, in cache: ObjectCache<Object>) {
        if case .atOnce = self { cache.markChangedByApp(id) }
    }
}
