import Dispatch

/// The store's reader connections: at most ``QSStoreOptions/readerCount``, each opened when first
/// needed. A read takes an idle one; when every one is busy and no more may be opened, it waits
/// its turn, first come first served, for at most ``QSStoreOptions/readerWaitLimit``.
///
/// A read never waits for another read while it holds a connection, so more reads at once than
/// connections only queue: they cannot deadlock. A connection passes from one read to the next on
/// its own queue, the moment the first read ends: the reads in line go on even while every thread
/// of Swift's cooperative pool is busy (each read's caller waits for one of those to resume, but
/// the next read does not wait with it).
final class ReaderPool: Sendable {
    /// A read waiting in line for a connection.
    private struct Waiter {
        let number: UInt64
        /// Runs the read on the connection given.
        let start: @Sendable (ReaderConnection) -> Void
        /// Ends the read with an error, without a connection.
        let fail: @Sendable (any Error) -> Void
    }

    private struct State {
        var idle: [ReaderConnection] = []
        var opened: [ReaderConnection] = []
        var busy = 0
        var waiting: [Waiter] = []
        var nextWaiter: UInt64 = 0
        var isClosed = false
        var closing: CheckedContinuation<Void, Never>?
    }

    private let path: String
    private let limit: Int
    private let waitLimit: Duration
    private let state = LockedState(State())
    /// Records the statements reads run, while ``QSStore/recordStatements(_:)`` asks.
    let recorder = LockedState<StatementRecorder?>(nil)

    init(path: String, options: QSStoreOptions) {
        self.path = path
        limit = options.readerCount
        waitLimit = options.readerWaitLimit
    }

    /// Runs `work` in a read transaction on a reader connection, once one is free.
    ///
    /// Not on its caller's actor, unlike ``DatabaseQueue/perform(_:)``: the reader goes to the next
    /// read in line the moment this one ends, so that read never waits for a busy main actor.
    /// - Throws: ``QSDataError/readersBusy(waited:)`` when none was free in time,
    ///   ``QSDataError/storeClosed`` once the pool is closed, or what `work` throws.
    func read<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        let recorder = recorder.withLock { $0 }
        return try await withCheckedThrowingContinuation { continuation in
            let start: @Sendable (ReaderConnection) -> Void = { reader in
                reader.read(recordingTo: recorder, work) { outcome in
                    self.give(back: reader)
                    continuation.resume(with: outcome)
                }
            }
            switch take(orWait: { number in Waiter(number: number, start: start, fail: { continuation.resume(throwing: $0) }) }) {
            case .taken(let reader): start(reader)
            case .closed: continuation.resume(throwing: QSDataError.storeClosed)
            case .waiting(let number): self.scheduleGiveUp(number: number)
            }
        }
    }

    private enum Taking {
        case taken(ReaderConnection)
        case closed
        /// In line, as the waiter of this number.
        case waiting(UInt64)
    }

    /// Takes an idle connection, or opens one while fewer than the limit are; otherwise puts the
    /// waiter `waiter(number)` makes in line, to be started when a connection is given back or
    /// failed at the wait limit.
    private func take(orWait waiter: (UInt64) -> Waiter) -> Taking {
        state.withLock { state -> Taking in
            if state.isClosed { return .closed }
            if let reader = state.idle.popLast() {
                state.busy += 1
                return .taken(reader)
            }
            if state.opened.count < limit {
                let reader = ReaderConnection(path: path)
                state.opened.append(reader)
                state.busy += 1
                return .taken(reader)
            }
            state.nextWaiter += 1
            state.waiting.append(waiter(state.nextWaiter))
            return .waiting(state.nextWaiter)
        }
    }

    private func scheduleGiveUp(number: UInt64) {
        let waitLimit = self.waitLimit
        let (seconds, attoseconds) = waitLimit.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) { [weak self] in
            guard let self else { return }
            let waiter = self.state.withLock { state -> Waiter? in
                guard let index = state.waiting.firstIndex(where: { $0.number == number }) else { return nil }
                return state.waiting.remove(at: index)
            }
            waiter?.fail(QSDataError.readersBusy(waited: waitLimit))
        }
    }

    /// Hands `reader` to the first read waiting in line, or makes it idle.
    private func give(back reader: ReaderConnection) {
        let (waiter, closing) = state.withLock { state -> (Waiter?, CheckedContinuation<Void, Never>?) in
            if !state.waiting.isEmpty { return (state.waiting.removeFirst(), nil) }
            state.busy -= 1
            state.idle.append(reader)
            guard state.isClosed, state.busy == 0 else { return (nil, nil) }
            defer { state.closing = nil }
            return (nil, state.closing)
        }
        waiter?.start(reader)
        closing?.resume()
    }

    /// Refuses new reads, fails those waiting in line, waits for those running, then closes
    /// every connection.
    func close() async {
        let (waiting, mustWait) = state.withLock { state -> ([Waiter], Bool) in
            state.isClosed = true
            defer { state.waiting = [] }
            return (state.waiting, state.busy > 0)
        }
        for waiter in waiting { waiter.fail(QSDataError.storeClosed) }
        if mustWait {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let finished = state.withLock { state -> Bool in
                    guard state.busy > 0 else { return true }
                    state.closing = continuation
                    return false
                }
                if finished { continuation.resume() }
            }
        }
        let readers = state.withLock { state -> [ReaderConnection] in
            defer {
                state.opened = []
                state.idle = []
            }
            return state.opened
        }
        for reader in readers { await reader.close() }
    }

    /// The number of reader connections opened so far.
    var openedCount: Int { state.withLock { $0.opened.count } }

    /// The number of reads waiting in line for a connection.
    var waitingCount: Int { state.withLock { $0.waiting.count } }
}
