import Observation

/// A query's results, kept current: an `@Observable` object for a SwiftUI view or any UI that
/// uses Observation.
///
/// Made by ``QSStore/liveQuery(_:)`` with the current results already in ``objects``. After each
/// committed change that can affect them, ``objects`` is set again; changes to unrelated types
/// cost nothing. Cancel it, or let it go, to stop.
/// ```swift
/// @MainActor @Observable final class TimelineModel {
///     let notes: QSLiveQuery<Note>
///     init(store: QSStore) async throws {
///         notes = try await store.liveQuery(QSQuery(Note.self, where: "archived = 0", orderBy: "sortDate DESC"))
///     }
/// }
/// // In a view: ForEach(model.notes.objects, id: \.uniqueID) { NoteRow(note: $0) }
/// ```
@MainActor
@Observable
public final class QSLiveQuery<Object: QSDataObject> {
    /// The current results.
    public private(set) var objects: [Object]
    /// The error of the last re-fetch that failed, cleared by the next that succeeds.
    public private(set) var error: (any Error)?
    /// How many times the results were fetched again after changes (the first fetch not counted).
    public private(set) var refetchCount = 0
    /// How many times a change was applied to the results without SQL.
    public private(set) var patchCount = 0
    /// False once cancelled or once the store closed.
    public private(set) var isActive = true

    @ObservationIgnored private let engine: LiveQueryEngine<Object>

    init(engine: LiveQueryEngine<Object>) {
        self.engine = engine
        objects = engine.objects
        engine.onEvent = { [weak self] event in self?.handle(event) }
    }

    /// Stops following changes; ``objects`` keeps the last results.
    public func cancel() {
        engine.stop()
        isActive = false
    }

    /// Returns once ``objects`` reflects every change committed before the call (at most one
    /// more fetch). Useful in tests and scripts; a UI simply observes ``objects``.
    public func waitUntilCurrent() async throws {
        try await engine.waitUntilCurrent()
    }

    private func handle(_ event: LiveQueryEngine<Object>.Event) {
        switch event {
        case .results:
            objects = engine.objects
            refetchCount = engine.refetchCount
            patchCount = engine.patchCount
            error = nil
        case .failure(let failure):
            error = failure
        case .finished:
            isActive = false
        }
    }
}
