/// A query's results as an `AsyncSequence`: the current results first, then the new results
/// after each committed change that can affect them.
///
/// Iterate it on the main actor, where model objects live. If the loop falls behind, it gets
/// the newest results, not every intermediate one. The sequence ends when the store closes;
/// leaving the loop or cancelling its task stops the query. A failed re-fetch is thrown.
/// ```swift
/// for try await notes in store.liveResults(QSQuery(Note.self, orderBy: "sortDate DESC")) {
///     render(notes)
/// }
/// ```
public struct QSLiveResults<Object: QSDataObject>: @MainActor AsyncSequence {
    public typealias Element = [Object]
    public typealias Failure = any Error

    let store: QSStore
    let query: QSQuery<Object>

    @MainActor
    public func makeAsyncIterator() -> Iterator {
        Iterator(buffer: LiveResultsBuffer(store: store, query: query))
    }

    public struct Iterator: @MainActor AsyncIteratorProtocol {
        public typealias Element = [Object]
        public typealias Failure = any Error

        let buffer: LiveResultsBuffer<Object>

        @MainActor
        public mutating func next() async throws -> [Object]? {
            try await buffer.next()
        }
    }
}

/// One iteration of a ``QSLiveResults``: its query, and the newest results not yet handed out.
@MainActor
final class LiveResultsBuffer<Object: QSDataObject> {
    private let store: QSStore
    private let query: QSQuery<Object>
    private var engine: LiveQueryEngine<Object>?
    private var hasNewResults = false
    private var pendingError: (any Error)?
    private var isFinished = false
    private var waiter: CheckedContinuation<Void, Never>?

    init(store: QSStore, query: QSQuery<Object>) {
        self.store = store
        self.query = query
    }

    func next() async throws -> [Object]? {
        guard let engine else { return try await start() }
        while true {
            if let error = pendingError {
                pendingError = nil
                throw error
            }
            if hasNewResults {
                hasNewResults = false
                return engine.objects
            }
            if isFinished || Task.isCancelled {
                engine.stop()
                return nil
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { waiter = $0 }
            } onCancel: {
                Task { @MainActor in self.wake() }
            }
        }
    }

    private func start() async throws -> [Object]? {
        let engine = try LiveQueryEngine(store: store, query: query)
        engine.onEvent = { [weak self] event in self?.handle(event) }
        self.engine = engine
        try await engine.start()
        return engine.objects
    }

    private func handle(_ event: LiveQueryEngine<Object>.Event) {
        switch event {
        case .results: hasNewResults = true
        case .failure(let error): pendingError = error
        case .finished: isFinished = true
        }
        wake()
    }

    private func wake() {
        waiter?.resume()
        waiter = nil
    }
}
