import Dispatch

/// The store's reader connections: at most ``QSStoreOptions/readerCount``, each opened when first
/// needed. A read takes an idle one; when every one is busy and no more may be opened, it waits
/// its turn, first come first served, for at most ``QSStoreOptions/readerWaitLimit``.
///
/// A read never waits for another read while it holds a connection, so more reads at once than
/// connections only queue: they cannot deadlock.
final class ReaderPool: Sendable {
    private struct Waiter {
        let number: UInt64
        let continuation: CheckedContinuation<ReaderConnection, any Error>
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
    /// Not on its caller's actor, unlike ``DatabaseQueue/perform(_:)``: the reader is given back
    /// the moment its read ends, so the next read in line never waits for a busy main actor.
    /// - Throws: ``QSDataError/readersBusy(waited:)`` when none was free in time,
    ///   ``QSDataError/storeClosed`` once the pool is closed, or what `work` throws.
    func read<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        let reader = try await take()
        defer { give(back: reader) }
        return try await reader.read(recordingTo: recorder.withLock { $0 }, work)
    }

    private enum Taking {
        case taken(ReaderConnection)
        case closed
        case wait
    }

    private func take() async throws -> ReaderConnection {
        let taking = state.withLock { state -> Taking in
            if state.isClosed { return .closed }
            if let reader = state.idle.popLast() {
                state.busy += 1
                return .taken(reader)
            }
            guard state.opened.count < limit else { return .wait }
            let reader = ReaderConnection(path: path)
            state.opened.append(reader)
            state.busy += 1
            return .taken(reader)
        }
        switch taking {
        case .taken(let reader): return reader
        case .closed: throw QSDataError.storeClosed
        case .wait: return try await waitForReader()
        }
    }

    /// Waits in line for a connection another read gives back, or until the wait limit.
    private func waitForReader() async throws -> ReaderConnection {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Taking in
                if state.isClosed { return .closed }
                // Given back between the first look and now: no need to wait.
                if let reader = state.idle.popLast() {
                    state.busy += 1
                    return .taken(reader)
                }
                state.nextWaiter += 1
                state.waiting.append(Waiter(number: state.nextWaiter, continuation: continuation))
                scheduleGiveUp(number: state.nextWaiter)
                return .wait
            }
            switch outcome {
            case .taken(let reader): continuation.resume(returning: reader)
            case .closed: continuation.resume(throwing: QSDataError.storeClosed)
            case .wait: break
            }
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
            waiter?.continuation.resume(throwing: QSDataError.readersBusy(waited: waitLimit))
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
        waiter?.continuation.resume(returning: reader)
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
        for waiter in waiting { waiter.continuation.resume(throwing: QSDataError.storeClosed) }
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
}
