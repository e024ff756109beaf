import Foundation

/// Delivers what the queue finished to the main actor: changes to observers, failures to
/// error observers, and cache work that had to wait for the database (such as evicting rows a
/// DELETE … WHERE removed).
@MainActor
final class ChangeCenter {
    private var changeHandlers: [UUID: Handler<QSChange>] = [:]
    private var changeStreams: [UUID: AsyncStream<QSChange>.Continuation] = [:]
    private var errorHandlers: [UUID: Handler<QSWriteError>] = [:]
    private var errorStreams: [UUID: AsyncStream<QSWriteError>.Continuation] = [:]
    private var unreportedErrors: [(error: QSWriteError, writes: [QSWrite])] = []
    /// Live queries, held weakly: releasing one stops it.
    private var listeners: [ObjectIdentifier: WeakCommitListener] = [:]
    let finishedWrites: FinishedWrites
    /// Write transactions handed to the queue whose outcome the main actor has not taken in yet.
    /// While there are none, every instance held shows what the database holds of its row, but
    /// for what the app changed since (see ``SaveBatch/skipsUnchanged``).
    private(set) var writesUnsettled = 0
    /// Runs each time the last unsettled write settles.
    var whenAllSettled: (@MainActor () -> Void)?
    /// Called once the saves up to a stamp have committed the change marks they took.
    var whenMarksWritten: (@MainActor (UInt64) -> Void)?

    init(finishedWrites: FinishedWrites) {
        self.finishedWrites = finishedWrites
    }

    // MARK: Subscribing

    /// A callback observer and the token that says whether it was cancelled or released.
    private struct Handler<Value> {
        let token: ObserverToken
        let call: @MainActor (Value) -> Void
    }

    func addChangeHandler(_ handler: @escaping @MainActor (QSChange) -> Void) -> QSObservation {
        let id = UUID()
        let token = ObserverToken()
        changeHandlers[id] = Handler(token: token, call: handler)
        return QSObservation(center: self, id: id, token: token)
    }

    func addErrorHandler(_ handler: @escaping @MainActor (QSWriteError) -> Void) -> QSObservation {
        let id = UUID()
        let token = ObserverToken()
        errorHandlers[id] = Handler(token: token, call: handler)
        return QSObservation(center: self, id: id, token: token)
    }

    func remove(_ id: UUID) {
        changeHandlers[id] = nil
        errorHandlers[id] = nil
        changeStreams.removeValue(forKey: id)?.finish()
        errorStreams.removeValue(forKey: id)?.finish()
    }

    func makeChangeStream() -> AsyncStream<QSChange> {
        let (stream, continuation) = AsyncStream<QSChange>.makeStream()
        let id = UUID()
        changeStreams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.changeStreams[id] = nil }
        }
        return stream
    }

    func makeErrorStream() -> AsyncStream<QSWriteError> {
        let (stream, continuation) = AsyncStream<QSWriteError>.makeStream()
        let id = UUID()
        errorStreams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.errorStreams[id] = nil }
        }
        return stream
    }

    func addListener(_ listener: any CommitListener) {
        listeners[ObjectIdentifier(listener)] = WeakCommitListener(listener: listener)
    }

    func removeListener(_ listener: any CommitListener) {
        listeners[ObjectIdentifier(listener)] = nil
    }

    func finishAll() {
        let closing = listeners.values.compactMap(\.listener)
        listeners = [:]
        closing.forEach { $0.storeDidClose() }
        changeStreams.values.forEach { $0.finish() }
        errorStreams.values.forEach { $0.finish() }
        changeStreams = [:]
        errorStreams = [:]
    }

    // MARK: Delivering

    /// A write transaction was handed to the queue: it posts ``FinishedWrites/Item/settled`` once
    /// it has posted its outcome.
    func writeHandedOver() {
        writesUnsettled += 1
    }

    /// Hands everything the queue finished to the main actor, in the order it finished.
    func deliverFinishedWork() {
        for (item, commitNumber) in finishedWrites.takeAll() {
            switch item {
            case .committed(let change, let operation, let afterCommit):
                do {
                    try afterCommit?()
                } catch {
                    // Nobody awaiting the write hears of this (it committed), so flush reports it.
                    report(QSWriteError(operation: operation, underlying: error, wasRolledBack: false), writes: [])
                }
                if !change.isEmpty { deliver(change, commitNumber: commitNumber) }
            case .failed(let error, let writes, let restores):
                restore(restores, commitNumber: commitNumber)
                report(error, writes: writes)
            case .restored(let restores):
                restore(restores, commitNumber: commitNumber)
            case .marksWritten(let stamp):
                whenMarksWritten?(stamp)
            case .settled:
                writesUnsettled -= 1
                if writesUnsettled == 0 { whenAllSettled?() }
            }
        }
    }

    /// Tells the error observers, and keeps `error` for the next flush unless one of `writes` is
    /// awaited (see ``takeUnreportedErrors()``).
    private func report(_ error: QSWriteError, writes: [QSWrite]) {
        unreportedErrors.append((error, writes))
        errorHandlers = handlersStillObserving(errorHandlers)
        call(errorHandlers, with: error)
        errorStreams.values.forEach { $0.yield(error) }
    }

    /// Restoring changes no row, so a live query that already reflects `commitNumber` (the last
    /// commit before the failure) has nothing to fetch again.
    private func restore(_ restores: [@MainActor @Sendable () -> QSChange], commitNumber: UInt64) {
        for restore in restores {
            let change = restore()
            if !change.isEmpty { deliver(change, commitNumber: commitNumber) }
        }
    }

    /// The failures no flush has reported yet and no one awaited through ``QSWrite/committed()``;
    /// reporting them clears them.
    func takeUnreportedErrors() -> [QSWriteError] {
        defer { unreportedErrors = [] }
        return unreportedErrors.filter { !$0.writes.contains(where: \.isAwaited) }.map(\.error)
    }

    /// A batch of many small saves delivers a change per save: nothing here rebuilds a list
    /// unless something in it has gone.
    private func deliver(_ change: QSChange, commitNumber: UInt64) {
        if !changeHandlers.isEmpty {
            changeHandlers = handlersStillObserving(changeHandlers)
            call(changeHandlers, with: change)
        }
        for stream in changeStreams.values { stream.yield(change) }
        guard !listeners.isEmpty else { return }
        let current = listeners
        var released: [ObjectIdentifier] = []
        for (key, held) in current {
            guard let listener = held.listener else {
                released.append(key)
                continue
            }
            listener.didCommit(change, commitNumber: commitNumber)
        }
        for key in released { listeners[key] = nil }
    }

    /// `handlers` without those whose observation has gone; the same dictionary, not a copy, when
    /// none has.
    private func handlersStillObserving<Value>(_ handlers: [UUID: Handler<Value>]) -> [UUID: Handler<Value>] {
        guard handlers.values.contains(where: { $0.token.isCancelled }) else { return handlers }
        return handlers.filter { !$0.value.token.isCancelled }
    }

    /// Calls every handler still observing with `value`. The handlers are a copy: one may cancel
    /// an observation (its own, say) while it is called, which changes the center's own list.
    private func call<Value>(_ handlers: [UUID: Handler<Value>], with value: Value) {
        for handler in handlers.values where !handler.token.isCancelled {
            handler.call(value)
        }
    }
}

/// Something on the main actor that follows committed changes with their commit numbers and
/// needs to know when the store closes: a live query.
@MainActor
protocol CommitListener: AnyObject {
    func didCommit(_ change: QSChange, commitNumber: UInt64)
    func storeDidClose()
}

private struct WeakCommitListener {
    weak var listener: (any CommitListener)?
}
