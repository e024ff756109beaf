import Foundation

/// What a write changed in memory before its SQL ran, so that a rollback can bring the
/// instances back to what the database holds.
///
/// Filled on the main actor while the write is prepared (a large save adds each chunk as it
/// encodes it); read on the database queue when the write's transaction rolls back.
final class MemoryTouches: @unchecked Sendable {
    private let lock = NSLock()
    private var idsByBinding: [ObjectIdentifier: (binding: any AnyTypeBinding, ids: [QSAnyID])] = [:]
    private var undos: [@Sendable () -> Void] = []

    /// The cached instances of `binding` with these IDs were changed in memory.
    func changed(_ binding: any AnyTypeBinding, ids: some Sequence<QSAnyID>) {
        guard binding.cachesInstances else { return }
        lock.lock()
        idsByBinding[ObjectIdentifier(binding), default: (binding, [])].ids.append(contentsOf: ids)
        lock.unlock()
    }

    /// `undo` puts back what the write took out of a cache.
    func addUndo(_ undo: @escaping @Sendable () -> Void) {
        lock.lock()
        undos.append(undo)
        lock.unlock()
    }

    /// Database queue, after a rollback or for writes that will never run: brings what the
    /// writes changed in memory back to what the database holds. Returns, per write, the
    /// main-actor work that patches the instances and returns the change observers hear (the
    /// restored IDs, as updated).
    ///
    /// Every write's evicted instances are put back before any row is re-read: a write that
    /// deleted a child evicts it, and an earlier write's parent re-read first would otherwise
    /// make a second instance of that child.
    static func restoreWork(
        for writes: [(touches: MemoryTouches?, source: QSChangeSource)], in context: ConnectionAndTypes
    ) -> [@MainActor @Sendable () -> QSChange] {
        for write in writes { write.touches?.putBackEvicted() }
        return writes.compactMap { write in write.touches?.rereadWork(source: write.source, in: context) }
    }

    /// Puts back the instances the write took out of a cache.
    private func putBackEvicted() {
        lock.lock()
        let undos = self.undos
        self.undos = []
        lock.unlock()
        for undo in undos { undo() }
    }

    /// Re-reads the changed rows and returns the main-actor work that patches the instances.
    private func rereadWork(source: QSChangeSource, in context: ConnectionAndTypes) -> @MainActor @Sendable () -> QSChange {
        lock.lock()
        let touched = Array(idsByBinding.values)
        lock.unlock()
        var patches: [(name: String, work: @MainActor @Sendable () -> [QSAnyID])] = []
        for (binding, ids) in touched {
            do {
                patches.append((binding.description.name, try binding.restoreCachedInstances(ids: ids, in: context)))
            } catch {
                // The rows can't be read back: forget the instances, so the next fetch reads them.
                patches.append((binding.description.name, { binding.evict(ids); return ids }))
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
