/// A write the store has enqueued: await ``committed()`` to know it reached the database.
///
/// Every write method returns one, and most callers ignore it: writes are not awaited. An app
/// that must know when a particular write committed, or whether it failed, keeps it:
/// ```swift
/// let write = try store.save(articles)
/// parseNextFeed()                       // goes on while the save runs
/// try await write.committed()           // throws QSWriteError if it was rolled back
/// ```
public final class QSWrite: Sendable {
    /// What was asked for, such as `save 3 VSNote`.
    public let operation: String
    /// One lock for both: a write's ticket is made for every write, and each lock is three
    /// allocations more on Linux (the box, Foundation's `NSLock` and its mutex).
    private let state = LockedState(State())

    private struct State {
        var outcome = Outcome.pending([])
        /// Whether someone asked for the write's outcome (see ``isAwaited``).
        var awaited = false
    }

    private enum Outcome {
        case pending([CheckedContinuation<Void, any Error>])
        case finished(QSWriteError?, FinishedChanges)
    }

    /// What a finished write changed: one write's change kept as it is, not in a list made for
    /// each of a batch's many writes; a batch's ticket keeps its writes' changes in a list.
    private enum FinishedChanges {
        case one(QSChange)
        case list([QSChange])

        var all: [QSChange] {
            switch self {
            case .one(let change): [change]
            case .list(let changes): changes
            }
        }
    }

    /// Where the write's change notifications are delivered, so ``committed()`` can deliver
    /// them before it returns.
    private weak let center: ChangeCenter?

    init(operation: String, center: ChangeCenter?) {
        self.operation = operation
        self.center = center
    }

    /// Waits until the write's transaction has committed; throws ``QSWriteError`` when it was
    /// rolled back instead.
    ///
    /// When it returns, observers have heard of the write's changes. A failure reported here is
    /// not thrown again by ``QSStore/flush()``.
    @MainActor
    public func committed() async throws {
        state.withLock { $0.awaited = true }
        defer { center?.deliverFinishedWork() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: QSWriteError?? = state.withLock { state in
                switch state.outcome {
                case .pending(let waiting):
                    state.outcome = .pending(waiting + [continuation])
                    return nil
                case .finished(let failure, _):
                    return .some(failure)
                }
            }
            switch outcome {
            case nil: break
            case .some(nil): continuation.resume()
            case .some(.some(let failure)): continuation.resume(throwing: failure)
            }
        }
    }

    /// Whether someone asked for this write's outcome, and so has been told of a failure.
    var isAwaited: Bool { state.withLock { $0.awaited } }

    /// What the write changed, once it has committed: the inserted, updated and deleted IDs,
    /// one change per write (a batch has several). Empty before the commit and after a rollback.
    ///
    /// Useful after a bulk update or delete `where:` an SQL condition, whose IDs are known only
    /// once it has run:
    /// ```swift
    /// let write = try store.update(Article.self, where: "feedID = ?", arguments: [.text(feed)], set: ["read": true])
    /// try await write.committed()
    /// let marked = write.changes.reduce(0) { $0 + $1.updatedIDs(of: Article.self).count }
    /// ```
    public var changes: [QSChange] {
        state.withLock { state in
            if case .finished(nil, let changes) = state.outcome { return changes.all }
            return []
        }
    }

    /// Database queue: the transaction ended, with `failure` when it was rolled back, and
    /// otherwise with `changes` committed.
    func finish(_ failure: QSWriteError?, changes: [QSChange] = []) {
        finish(failure, .list(failure == nil ? changes : []))
    }

    /// Database queue: the transaction committed, with `change`, this write's.
    func finish(committing change: QSChange) {
        finish(nil, .one(change))
    }

    private func finish(_ failure: QSWriteError?, _ changes: FinishedChanges) {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard case .pending(let waiting) = state.outcome else { return [] }
            state.outcome = .finished(failure, changes)
            return waiting
        }
        for continuation in waiting {
            if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
        }
    }
}
