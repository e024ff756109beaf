import Foundation

/// Change notifications and write failures, on the main actor.
extension QSStore {
    /// A new stream of every change committed from now on, app and sync alike.
    /// ```swift
    /// Task { for await change in store.changes { refresh(change) } }
    /// ```
    public var changes: AsyncStream<QSChange> { changeCenter.makeChangeStream() }

    /// Calls `handler` on the main actor with every change committed from now on, until the
    /// returned observation is cancelled or released.
    public func observeChanges(_ handler: @escaping @MainActor (QSChange) -> Void) -> QSObservation {
        changeCenter.addChangeHandler(handler)
    }

    /// A new stream of every write failure from now on.
    public var writeErrors: AsyncStream<QSWriteError> { changeCenter.makeErrorStream() }

    /// Calls `handler` on the main actor with every write failure from now on.
    public func observeWriteErrors(_ handler: @escaping @MainActor (QSWriteError) -> Void) -> QSObservation {
        changeCenter.addErrorHandler(handler)
    }
}

/// A registered observer. It stops when cancelled or released.
@MainActor
public final class QSObservation {
    private weak var center: ChangeCenter?
    private let id: UUID
    /// Shared with the change center, so that releasing the observation stops it at once from
    /// any thread (a `deinit` can't reach the main actor synchronously on every OS QSData runs on).
    private let token: ObserverToken

    init(center: ChangeCenter, id: UUID, token: ObserverToken) {
        self.center = center
        self.id = id
        self.token = token
    }

    /// Stops the observer.
    public func cancel() {
        token.cancel()
        center?.remove(id)
    }

    deinit {
        token.cancel()
    }
}
