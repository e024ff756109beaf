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
    let inbox = Inbox()

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

    func finishAll() {
        changeStreams.values.forEach { $0.finish() }
        errorStreams.values.forEach { $0.finish() }
        changeStreams = [:]
        errorStreams = [:]
    }

    // MARK: Delivering

    /// Hands everything the queue finished to the main actor, in the order it finished.
    func deliverFinishedWork() {
        for item in inbox.takeAll() {
            switch item {
            case .committed(let change, let mainActorWork):
                mainActorWork?()
                if !change.isEmpty { deliver(change) }
            case .failed(let error, let writes, let restores):
                restore(restores)
                unreportedErrors.append((error, writes))
                call(&errorHandlers, with: error)
                errorStreams.values.forEach { $0.yield(error) }
            case .restored(let restores):
                restore(restores)
            }
        }
    }

    private func restore(_ restores: [@MainActor @Sendable () -> QSChange]) {
        for restore in restores {
            let change = restore()
            if !change.isEmpty { deliver(change) }
        }
    }

    /// The failures no flush has reported yet and no one awaited through ``QSWrite/committed()``;
    /// reporting them clears them.
    func takeUnreportedErrors() -> [QSWriteError] {
        defer { unreportedErrors = [] }
        return unreportedErrors.filter { !$0.writes.contains(where: \.isAwaited) }.map(\.error)
    }

    private func deliver(_ change: QSChange) {
        call(&changeHandlers, with: change)
        changeStreams.values.forEach { $0.yield(change) }
    }

    /// Calls every live handler with `value`, forgetting those whose observation has gone.
    private func call<Value>(_ handlers: inout [UUID: Handler<Value>], with value: Value) {
        handlers = handlers.filter { !$0.value.token.isCancelled }
        for handler in handlers.values where !handler.token.isCancelled {
            handler.call(value)
        }
    }
}

/// What the queue has finished and the main actor has not yet seen. Filled on the queue.
final class Inbox: @unchecked Sendable {
    enum Item {
        case committed(QSChange, mainActorWork: (@MainActor @Sendable () -> Void)?)
        /// `restores` bring the instances the writes had changed back to what the database holds.
        case failed(QSWriteError, writes: [QSWrite], restores: [@MainActor @Sendable () -> QSChange])
        /// Writes that never ran (their batch's body threw) changed instances in memory; these
        /// bring them back.
        case restored([@MainActor @Sendable () -> QSChange])
    }

    private let lock = NSLock()
    private var items: [Item] = []

    func post(_ item: Item) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    func takeAll() -> [Item] {
        lock.lock()
        defer { lock.unlock() }
        let taken = items
        items = []
        return taken
    }
}
