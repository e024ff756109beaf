import Foundation

/// What the queue has finished and the main actor has not yet seen. Filled on the queue.
///
/// Each committed write gets the next commit number, so that a fetch that reads
/// ``lastCommitNumber`` on the queue knows exactly which changes it already reflects.
final class FinishedWrites: @unchecked Sendable {
    enum Item {
        case committed(QSChange, operation: String, afterCommit: AfterCommitWork?)
        /// `restores` bring the instances the writes had changed back to what the database holds.
        case failed(QSWriteError, writes: [QSWrite], restores: [@MainActor @Sendable () -> QSChange])
        /// Writes given up by the app (their batch's body threw, or an update's instances refused
        /// its values) rolled back without a failure to report; these bring back the instances
        /// they had changed in memory.
        case restored([@MainActor @Sendable () -> QSChange])
        /// A write transaction has posted all it will:
        /// once the main actor has taken this in, its outcome is known there (see
        /// ``ChangeCenter/writesUnsettled``).
        case settled
    }

    private let lock = NSLock()
    private var items: [(Item, commitNumber: UInt64)] = []
    private var commitCount: UInt64 = 0

    func post(_ item: Item) {
        lock.lock()
        if case .committed = item { commitCount += 1 }
        items.append((item, commitCount))
        lock.unlock()
    }

    /// The number of the last write that committed; read on the queue, it covers every write
    /// enqueued before.
    var lastCommitNumber: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return commitCount
    }

    func takeAll() -> [(Item, commitNumber: UInt64)] {
        lock.lock()
        defer { lock.unlock() }
        let taken = items
        items = []
        return taken
    }
}
