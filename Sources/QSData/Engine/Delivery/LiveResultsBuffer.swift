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
