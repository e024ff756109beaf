import Foundation

/// What the queue has finished and the main actor has not yet seen. Filled on the queue.
///
/// Each committed write gets the next commit number, so that a fetch that reads
/// ``lastCommitNumber`` on the queue knows exactly which changes it already reflects.
final class FinishedWrites: Sendable {
    enum Item {
        case committed(QSChange, operation: String, afterCommit: AfterCommitWork?)
        /// `restores` bring the instances the writes had changed back to what the database holds.
        case failed(QSWriteError, writes: [QSWrite], restores: [@MainActor @Sendable () -> QSChange])
        /// Writes given up by the app (their batch's body threw, or an update's instances refused
        /// its values) rolled back without a failure to report; these bring back the instances
        /// they had changed in memory.
        case restored([@MainActor @Sendable () -> QSChange])
        /// The saves up to the one stamped `upTo` committed, with the change marks they took: one
        /// item for a transaction's saves, rather than work of its own for each of them.
        case marksWritten(upTo: UInt64)
        /// A write transaction has posted all it will:
        /// once the main actor has taken this in, its outcome is known there (see
        /// ``ChangeCenter/writesUnsettled``).
        case settled
    }

    /// The items posted and not yet taken, and how many writes have committed.
    private struct Posted {
        var items: [(Item, commitNumber: UInt64)] = []
        var commitCount: UInt64 = 0
    }

    private let posted = LockedState(Posted())

    func post(_ item: Item) {
        posted.withLock { posted in
            if case .committed = item { posted.commitCount += 1 }
            posted.items.append((item, posted.commitCount))
        }
    }

    /// The number of the last write that committed; read on the queue, it covers every write
    /// enqueued before.
    var lastCommitNumber: UInt64 {
        posted.withLock { $0.commitCount }
    }

    func takeAll() -> [(Item, commitNumber: UInt64)] {
        posted.withLock { posted in
            let taken = posted.items
            posted.items = []
            return taken
        }
    }
}
