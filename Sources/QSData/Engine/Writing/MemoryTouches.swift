/// What a write changed in memory before its SQL ran, so that a rollback can bring the
/// instances back to what the database holds.
///
/// Filled on the main actor while the write is prepared (a large save adds each chunk as it
/// encodes it); read on the database queue when the write's transaction rolls back.
final class MemoryTouches: Sendable {
    /// The ``WriteStamp`` of the write: an instance the app saved through a later write keeps what
    /// that save holds when this one's rollback is restored.
    let stamp: UInt64
    private let state = LockedState(Touched())

    /// What the write touched: a few types at most, so a list searched in order rather than a
    /// dictionary (a batch of many small saves makes one of these for every save).
    private struct Touched {
        var changedByBinding: [(binding: any AnyTypeBinding, ids: [QSAnyID])] = []
        var undos: [@MainActor @Sendable () -> Void] = []
        /// The rows whose instances the write took out of a cache (their rows deleted), by table.
        var removedByTable: [String: [QSAnyID]] = [:]
    }

    init(stamp: UInt64) {
        self.stamp = stamp
    }

    /// The cached instances of `binding` with these IDs were changed in memory.
    func changed(_ binding: any AnyTypeBinding, ids: some Sequence<QSAnyID>) {
        guard binding.cachesInstances else { return }
        state.withLock { touched in
            if let index = touched.changedByBinding.firstIndex(where: { $0.binding === binding }) {
                touched.changedByBinding[index].ids.append(contentsOf: ids)
            } else {
                touched.changedByBinding.append((binding, Array(ids)))
            }
        }
    }

    /// The instances of `binding` with these IDs were taken out of its cache: their rows are
    /// being deleted.
    func removed(_ binding: any AnyTypeBinding, ids: [QSAnyID]) {
        guard binding.cachesInstances else { return }
        state.withLock { $0.removedByTable[binding.description.table, default: []].append(contentsOf: ids) }
    }

    /// Counts what was recorded so far, so that a copy of ``touchedRows()`` can tell it is behind
    /// (a large save records each chunk as it encodes it).
    var recordedCount: Int {
        state.withLock { touched in
            touched.changedByBinding.reduce(0) { $0 + $1.ids.count } + touched.removedByTable.values.reduce(0) { $0 + $1.count }
        }
    }

    /// The rows whose instances the write changed in memory or took out of a cache, by table.
    func touchedRows() -> [(table: String, ids: [QSAnyID])] {
        state.withLock { touched in
            touched.changedByBinding.map { ($0.binding.description.table, $0.ids) } + touched.removedByTable.map { ($0.key, $0.value) }
        }
    }

    /// `undo` puts back what the write took out of a cache.
    func addUndo(_ undo: @escaping @MainActor @Sendable () -> Void) {
        state.withLock { $0.undos.append(undo) }
    }

    /// Database queue, after a rollback: re-reads the rows the writes changed in memory, and
    /// returns, per write, the main-actor work that puts back the instances the write took out of
    /// a cache and patches the others to what the database holds.
    /// The work returns the change observers hear: the restored IDs, as updated.
    ///
    /// The queue's own table of instances (``KnownRows``) still holds the instances put aside, so
    /// a parent re-read here lists the very child instance the main actor puts back.
    static func restoreWork(
        for writes: [(touches: MemoryTouches?, source: QSChangeSource)], in context: QueueContext
    ) -> [@MainActor @Sendable () -> QSChange] {
        let touched = writes.compactMap { write in write.touches.map { (touches: $0, source: write.source) } }
        let patches = touched.map { $0.touches.rereadWork(source: $0.source, in: context) }
        let undos = touched.flatMap { $0.touches.takeUndos() }
        // The re-reads made instances for rows no one held: the main actor keeps them too.
        let keepMade = context.made.handOver()
        let firstly = OnceOnMainActor {
            // Every write's instances go back before any is patched: a later write of a batch may
            // have evicted an instance an earlier one's patch is for.
            for undo in undos { undo() }
            keepMade()
        }
        return patches.map { patch in
            {
                firstly.run()
                return patch()
            }
        }
    }

    private func takeUndos() -> [@MainActor @Sendable () -> Void] {
        state.withLock { $0.undos }
    }

    private func rereadWork(source: QSChangeSource, in context: QueueContext) -> @MainActor @Sendable () -> QSChange {
        let touched = state.withLock { $0.changedByBinding }
        var patches: [(name: String, work: @MainActor @Sendable () -> [QSAnyID])] = []
        for (binding, ids) in touched {
            do {
                patches.append((binding.description.name, try binding.restoreCachedInstances(ids: ids, stamp: stamp, in: context)))
            } catch {
                // The rows can't be read back: forget the instances, so the next fetch reads them.
                patches.append((binding.description.name, { binding.evict(ids, afterCommitOf: nil); return ids }))
            }
        }
        return {
            var change = QSChange(source: source)
            for patch in patches {
                change.record(\.updatedList, patch.work(), of: patch.name)
            }
            return change
        }
    }
}

/// Work run once on the main actor by whichever of several closures runs first.
@MainActor
private final class OnceOnMainActor: Sendable {
    private var work: (@MainActor () -> Void)?

    nonisolated init(_ work: @escaping @MainActor @Sendable () -> Void) {
        self.work = work
    }

    func run() {
        let work = self.work
        self.work = nil
        work?()
    }
}
